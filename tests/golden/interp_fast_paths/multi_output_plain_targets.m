% [a, b] = name(args) into plain variables: builtins, variables, ~, errors, evaluation once.
v = [3 1 2];
[s, i] = sort(v, 'descend');
fprintf('%s %s\n', mat2str(s), mat2str(i));
[~, i] = max(v);
fprintf('%d\n', i);
[m, ~] = min(v);
fprintf('%d\n', m);
[r, c] = size(zeros(2, 5));
fprintf('%d %d\n', r, c);
[a, b, d] = size(zeros(2, 5, 3, 4));
fprintf('%d %d %d\n', a, b, d);
rand('seed', 1);
[s2, i2] = sort(rand(1, 3));
fprintf('%d %d\n', numel(s2), issorted(s2));
sort = [10 20 30];
try
    [p, q] = sort(2);
catch err
    fprintf('%s\n', err.identifier);
end
[p] = sort(2);
fprintf('%d\n', p);
clear sort
try
    [p, q] = numel(v);
catch err
    fprintf('%s\n', err.identifier);
end
try
    [p, q] = no_such_function_here(v);
catch err
    fprintf('%s\n', err.identifier);
end
try
    [p, q] = sort(v, 'sideways');
catch err
    fprintf('%s\n', err.identifier);
end
c = {4, 5};
[x, y] = deal(c{:});
fprintf('%d %d\n', x, y);
[x, y] = deal(7);
fprintf('%d %d\n', x, y);
[tf, loc] = ismember([1 5 2], v);
fprintf('%s %s\n', mat2str(tf), mat2str(loc));
f = @(t) t * 2;
[w] = f(4);
fprintf('%d\n', w);
