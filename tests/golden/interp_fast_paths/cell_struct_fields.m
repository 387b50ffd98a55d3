% c{k}.name reads and c{k}.name = v writes: sharing, growth, errors.
c = cell(1, 3);
for k = 1:3
    c{k} = struct('id', k, 'hits', 0);
end
d = c;
k = 2;
c{k}.hits = c{k}.hits + 5;
fprintf('%g %g\n', c{2}.hits, d{2}.hits);
t = c{1};
c{1}.hits = 7;
fprintf('%g %g\n', c{1}.hits, t.hits);
s = struct('a', {1, 2});
c{3} = s(2);
c{3}.a = 70;
fprintf('%g %g %g\n', c{3}.a, s(2).a, s(1).a);
c{3}.newfield = 'x';
fprintf('%s | %s\n', strjoin(fieldnames(c{3})', ','), strjoin(fieldnames(s)', ','));
c{2}.id = [];
fprintf('%d\n', isempty(c{2}.id));
k = 5;
c{k}.id = 9;
fprintf('%d %s %g\n', numel(c), class(c{4}), c{5}.id);
e = {[], 3, struct('a', {1, 2})};
e{1}.z = 4;
fprintf('%s %g\n', class(e{1}), e{1}.z);
bad = {2, 3, 1.5, 0};
for j = 1:numel(bad)
    k = bad{j};
    try
        e{k}.z = 1;
        fprintf('ok %g\n', k);
    catch err
        fprintf('%s\n', err.identifier);
    end
end
n = 5;
try
    n{1}.a = 1;
catch err
    fprintf('%s\n', err.identifier);
end
g = cell(2, 2);
g{2, 2} = struct('v', 1);
k = 4;
g{k}.v = 2;
fprintf('%g\n', g{2, 2}.v);
clear h
h{2}.w = 3;
fprintf('%s %d %g\n', class(h), numel(h), h{2}.w);
q = c{5}.id;
fprintf('%g\n', q);
try
    q = e{2}.z;
catch err
    fprintf('%s\n', err.identifier);
end
