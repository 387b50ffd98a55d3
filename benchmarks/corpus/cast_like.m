% cast/zeros/ones with 'like', class names and size vectors.
% budget: uploads<=4 downloads<=4
% rtol: 1e-6
p = gpuArray(single(1));
x = cast([1.25 2.5 3.75], 'like', p);
z = zeros([2 3], 'like', p);
o = ones(2, 3, 'single', 'gpuArray');
e = eye(3, 'like', x);
n = nan(1, 2, 'like', x);
fprintf('%s %s %s %s\n', classUnderlying(x), classUnderlying(z), classUnderlying(e), classUnderlying(n));
fprintf('%g %g %g\n', gather(sum(x)), gather(sum(o(:)) + sum(z(:))), gather(trace(e)));
fprintf('%d\n', isgpuarray(x) && isgpuarray(z) && isgpuarray(e));
