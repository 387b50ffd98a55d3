% arithmetic on gpuArrays, mixed host/device operands, class rules
G = gpuArray([1 2; 3 4]);
H = G + 1;
fprintf('%s %s\n', class(H), classUnderlying(H));
M = [10 20; 30 40] - G;
fprintf('%s\n', class(M));
disp(gather(M))
P = G .* G;
disp(gather(P))
Q = G * G;
disp(gather(Q))
T = G';
disp(gather(T))
R = 2 .^ G;
disp(gather(R))
S = gpuArray(single([1 2])) + 1;
fprintf('%s %s\n', class(S), classUnderlying(S));
D = gpuArray(single([1 2])) + gpuArray([1 1]);
fprintf('%s\n', classUnderlying(D));
C = G > 2;
fprintf('%s %s\n', class(C), classUnderlying(C));
disp(gather(C))
N = -G;
disp(gather(N))
z = sqrt(gpuArray(-4));
fprintf('%s %d %g %g\n', class(z), isreal(z), real(gather(z)), imag(gather(z)));
w = gpuArray([-8 8]) .^ (1/3);
zw = gather(w);
fprintf('%d %.4f %.4f %.4f\n', isreal(zw), real(zw(1)), imag(zw(1)), real(zw(2)));
e = exp(gpuArray([0 1]));
fprintf('%.6f %.6f\n', gather(e));
m = max(gpuArray([1 5 3]), 4);
disp(gather(m))
r = mod(gpuArray([-7 7]), 3);
disp(gather(r))
k = gpuArray(int8([100 120])) + 100;
fprintf('%s %d %d\n', classUnderlying(k), gather(k));
l = gpuArray(true) + gpuArray(true);
fprintf('%s %g\n', classUnderlying(l), gather(l));
