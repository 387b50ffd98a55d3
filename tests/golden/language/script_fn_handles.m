ops = {@plus, @minus, @times};
for k = 1:numel(ops)
    f = ops{k};
    fprintf('%s(6,3) = %d\n', func2str(f), f(6, 3));
end
apply = @(fn, x) fn(x);
fprintf('%d\n', apply(@twice, 21));
h = str2func('twice');
fprintf('%d\n', h(4));
a2 = str2func('@(x) x + 100');
fprintf('%d\n', a2(1));
function y = twice(x)
    y = 2 * x;
end
