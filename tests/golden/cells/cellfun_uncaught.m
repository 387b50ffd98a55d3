% An uncaught builtin error reports "Error using cellfun".
n = cellfun(@numel, {'a', 'bb'});
fprintf('%d\n', n);
bad = cellfun(@(x) [x x], {1, 2});
disp('not reached');
