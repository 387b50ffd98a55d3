% dot, cross, norm forms, cumprod, kron and trace on device vectors
% budget: uploads<=4 downloads<=10
% rtol: 1e-10
u = gpuArray([1 2 3]); v = gpuArray([-2 0.5 4]);
a = dot(u, v); b = cross(u, v); c = norm(u - v); d = norm(u, 1); e = norm(v, Inf);
f = cumprod(u); g = kron(u, v); h = u' * v;
fprintf('%g %g %g %g %g %g %g %g\n', gather(a), gather(sum(b)), gather(c), gather(d), gather(e), gather(f(end)), gather(sum(g)), gather(trace(h)));
