% means and sums of logical data, any/all of empties (results from the sizes: tiny uploads), nnz and counts with dims
% budget: uploads<=6 downloads<=10
% rtol: 1e-12
x = gpuArray(reshape(mod((1:40) * 3, 7) > 2, 5, 8));
a = mean(x); b = sum(x, 2); c = mean(x(:)); d = any(x(:, []), 1); e = all(x(:, []));
f = nnz(x); g = sum(x, 'all');
fprintf('%g %g %g %d %d %g %g\n', gather(sum(a)), gather(sum(b)), gather(c), numel(d), gather(all(e)), gather(f), gather(g));
fprintf('%s %s\n', classUnderlying(a), classUnderlying(b));
