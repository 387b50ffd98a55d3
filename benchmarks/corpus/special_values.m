% MATLAB's special-value semantics on the device: rem, sign, hypot, max of logicals.
% budget: uploads<=8 downloads<=8
% rtol: 0
x = gpuArray([5 -3 NaN Inf 0]);
r = rem(x, 0); s = sign(x); h = hypot(gpuArray([1e308 Inf]), gpuArray([0 NaN]));
m = max(gpuArray(true), gpuArray(false));
fprintf('%g ', gather(r), gather(s), gather(h)); fprintf('\n%s\n', classUnderlying(m));
