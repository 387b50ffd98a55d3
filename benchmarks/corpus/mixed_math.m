% atan2, hypot, power with negative bases, mod of singles, sign, nthroot
% budget: uploads<=4 downloads<=10
% rtol: 1e-6
x = gpuArray(linspace(-2, 2, 33));
a = atan2(x, 1 - x);
b = hypot(x, 2 * x);
c = (-x) .^ 3;
d = mod(single(x), single(-0.75));
e = nthroot(x, 3);
f = sign(x) .* sqrt(abs(x));
fprintf('%.6f %.6f %.6f %.6f %.6f %.6f\n', gather(sum(a)), gather(sum(b)), gather(sum(c)), gather(sum(d)), gather(sum(e)), gather(sum(f)));
