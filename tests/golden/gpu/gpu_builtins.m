% conversions, construction on the device, arrayfun, pagefun, gputimeit
G = gpuArray([1.4 2.6 -3.5]);
s = single(G);
fprintf('%s %s\n', class(s), classUnderlying(s));
i = int32(G);
fprintf('%s %d %d %d\n', classUnderlying(i), gather(i));
b = double(gpuArray(int8([1 2])));
fprintf('%s\n', classUnderlying(b));
z = zeros(2, 3, 'gpuArray');
fprintf('%s %s %d %d\n', class(z), classUnderlying(z), size(z));
o = ones(2, 'like', G);
fprintf('%s %g\n', class(o), gather(sum(o(:))));
os = ones(1, 2, 'single', 'gpuArray');
fprintf('%s\n', classUnderlying(os));
r = rand(3, 'gpuArray');
fprintf('%s %d\n', class(r), all(gather(r(:)) > 0 & gather(r(:)) < 1));
a = arrayfun(@(x) x^2 + 1, gpuArray([1 2 3]));
fprintf('%s\n', class(a));
disp(gather(a))
A = gpuArray(reshape(1:8, 2, 2, 2));
B = gpuArray(repmat(eye(2), 1, 1, 2));
C = pagefun(@mtimes, A, B);
fprintf('%s %d %d %d\n', class(C), size(C));
disp(gather(C(:, :, 2)))
t = gputimeit(@() G + 1);
fprintf('%d\n', t > 0);
n = num2str(gpuArray(pi));
fprintf('%s %s\n', class(n), n);
