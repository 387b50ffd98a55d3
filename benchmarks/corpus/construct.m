% construction variants on the device
% budget: uploads<=4 downloads<=10
% rtol: 1e-12
n = gpuArray(5);
a = zeros(3, 'gpuArray'); b = ones(2, 3, 'single', 'gpuArray');
c = linspace(gpuArray(0), 1, 7);
d = 1:n;
e = eye(3, 'like', b);
f = repelem(gpuArray([1 2 3]), 2);
g = colon(gpuArray(2), 2, 10);
fprintf('%g %g %g %g %g %g %g\n', gather(sum(a(:))), gather(sum(b(:))), gather(sum(c)), gather(sum(d)), gather(sum(e(:))), gather(sum(f)), gather(sum(g)));
fprintf('%s %s\n', classUnderlying(e), classUnderlying(d));
