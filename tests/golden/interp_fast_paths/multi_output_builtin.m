% [a, b] = builtin(args): the direct multi-output path and its edge cases.
v = [3 1 2 5 4];
[s, i] = sort(v, 'descend');
fprintf('%g ', s, i); fprintf('\n');
[s, i] = sort(v');
fprintf('%d %d %s\n', size(s), class(i));
fprintf('%g ', i); fprintf('\n');
[~, i] = sort(v);
fprintf('%g ', i); fprintf('\n');
[s, i] = sort([]);
fprintf('%d %d %d %d\n', size(s), size(i));
[s, i] = sort(int8([5 -3 0]));
fprintf('%s %s %s\n', class(s), class(i), mat2str(double(s)));
[s, i] = sort({'pear', 'apple', 'fig'});
fprintf('%s %s\n', strjoin(s, ','), mat2str(i));
[s, i] = sort(single([2 NaN 1]));
fprintf('%s %s %s\n', class(s), mat2str(double(s)), mat2str(i));
[s, i] = sort(true(1, 3));
fprintf('%s %s\n', class(s), mat2str(i));
[r, c] = size(zeros(3, 4, 2));
fprintf('%d %d\n', r, c);
[tf, loc] = ismember([2 9], [5 2 7]);
fprintf('%d %d %d %d\n', tf, loc);
% A shared input is not changed by the call.
w = v;
[s, i] = sort(w);
fprintf('%g ', v, w); fprintf('\n');
% Too many outputs, too many inputs.
try
    [a, b] = numel(v);
catch err
    fprintf('%s\n', err.identifier);
end
try
    [a, b, c] = sort(v);
catch err
    fprintf('%s\n', err.identifier);
end
try
    [a, b] = sort(v, 2, 'ascend', 'x', 1, 2, 3);
catch err
    fprintf('%s\n', err.identifier);
end
% A variable of the same name is indexed, not called.
sort = [10 20 30];
[p] = sort(2);
fprintf('%g\n', p);
clear sort
[s, i] = sort([2 1]);
fprintf('%g %g\n', s, i);
