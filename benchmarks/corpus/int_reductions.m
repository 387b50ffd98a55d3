% integer reductions: sum/mean/prod/cumsum of int data, native and default outtypes
% budget: uploads<=4 downloads<=12
% rtol: 0
x = gpuArray(int16(reshape(mod((1:48) * 37, 200) - 100, 6, 8)));
a = sum(x); b = sum(x, 'native'); c = mean(x, 2); d = mean(x, 'native');
e = cumsum(x, 2); f = max(x, [], 'all'); g = prod(int8(x(1:3, 1)));
fprintf('%s %s %s %s %s %s %s\n', classUnderlying(a), classUnderlying(b), classUnderlying(c), classUnderlying(d), classUnderlying(e), classUnderlying(f), classUnderlying(g));
fprintf('%g %g %g %g %g %g %g\n', gather(sum(a)), gather(sum(b)), gather(sum(c)), gather(sum(d)), gather(sum(e(:))), gather(f), gather(g));
