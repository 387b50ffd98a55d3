% s(k).name = v and s(k).name reads: sharing, element sharing, growth, new fields, errors.
s = struct('v', {1, 2, 3});
b = s;
for k = 1:3
    s(k).v = s(k).v * 10;
end
fprintf('%d %d %d | %d %d %d\n', s.v, b.v);
e = s(2);
s(2).v = -5;
fprintf('%d %d\n', s(2).v, e.v);
c = {s};
s(1).v = 99;
fprintf('%d %d\n', s(1).v, c{1}(1).v);
k = 5;
s(k).v = 7;
fprintf('%d %d\n', numel(s), isempty(s(4).v));
k = 1;
s(k).w = 'new';
fprintf('%s %d\n', strjoin(fieldnames(s)', ','), isempty(s(2).w));
m = struct('v', {1, 2; 3, 4});
k = 3;
m(k).v = 30;
fprintf('%d %d %d %d\n', m(1, 1).v, m(2, 1).v, m(1, 2).v, m(2, 2).v);
n = repmat(struct('v', 0), [1 2 2]);
k = 4;
n(k).v = 4;
fprintf('%d %s\n', n(1, 2, 2).v, mat2str(size(n)));
bad = {0, 1.5, -1};
for j = 1:numel(bad)
    k = bad{j};
    try
        s(k).v = 1;
    catch err
        fprintf('%s\n', err.identifier);
    end
end
x = 5;
k = 1;
try
    x(k).v = 1;
catch err
    fprintf('%s\n', err.identifier);
end
k = 2;
try
    y = s(k).nofield;
catch err
    fprintf('%s\n', err.identifier);
end
k = 9;
try
    y = s(k).v;
catch err
    fprintf('%s\n', err.identifier);
end
t = struct('v', {1, 2});
k = 2;
t(k).v = {};
fprintf('%s %d\n', class(t(2).v), numel(t));
