% Nested element writes s(k).c{j}(r) = v, s.a.b(k) = v, c{i}{j} = v: sharing at every level, growth, errors.
s = struct('c', {{zeros(1, 3), zeros(1, 3)}, {ones(1, 3), ones(1, 3)}});
b = s;
inner = s(2).c;
row = s(2).c{1};
k = 2; j = 1; r = 3;
s(k).c{j}(r) = 7;
fprintf('%s %s %s %s\n', mat2str(s(2).c{1}), mat2str(b(2).c{1}), mat2str(inner{1}), mat2str(row));
for k = 1:2
    for j = 1:2
        for r = 1:3
            s(k).c{j}(r) = k * 100 + j * 10 + r;
        end
    end
end
fprintf('%s %s\n', mat2str(s(1).c{2}), mat2str(s(2).c{1}));
k = 1; j = 2; r = 5;
s(k).c{j}(r) = 9;
fprintf('%s\n', mat2str(s(1).c{2}));
k = 1; j = 3; r = 1;
s(k).c{j}(r) = 4;
fprintf('%d %s\n', numel(s(1).c), mat2str(s(1).c{3}));
k = 1; j = 1; r = 1;
s(k).c{j}(r) = int8(5);
fprintf('%s %s\n', class(s(1).c{1}), mat2str(s(1).c{1}));
s(k).c{j}(r) = 2.5;
fprintf('%s\n', mat2str(s(1).c{1}));
t.a.b = zeros(2, 2);
u = t;
k = 4;
t.a.b(k) = 8;
fprintf('%s %s\n', mat2str(t.a.b), mat2str(u.a.b));
v = t.a;
t.a.b(1) = -1;
fprintf('%s %s\n', mat2str(t.a.b), mat2str(v.b));
c = {{1, 2}, {3, 4}};
d = c{2};
i = 2; j = 1;
c{i}{j} = 'x';
fprintf('%s %d %d\n', c{2}{1}, d{1}, c{1}{1});
c{i}{j} = {5};
fprintf('%s\n', class(c{2}{1}));
m.g = {zeros(2, 2, 2)};
k = 1; r = 8;
m.g{k}(r) = 3;
fprintf('%d %s\n', m.g{1}(2, 2, 2), mat2str(size(m.g{1})));
bad = {0, 1.5, -1};
for q = 1:numel(bad)
    r = bad{q};
    try
        s(1).c{1}(r) = 1;
    catch err
        fprintf('%s\n', err.identifier);
    end
end
k = 1; j = 1;
try
    s(k).nope{j}(1) = 1;
    fprintf('%d\n', numel(s(1).nope));
catch err
    fprintf('%s\n', err.identifier);
end
x = 5;
try
    x(1).c{1}(1) = 1;
catch err
    fprintf('%s\n', err.identifier);
end
w = {1, 2};
try
    w{1}{1}(1) = 3;
    fprintf('%s\n', class(w{1}));
catch err
    fprintf('%s\n', err.identifier);
end
