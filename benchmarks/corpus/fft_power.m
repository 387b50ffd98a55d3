% FFT power spectrum of a device signal.
% budget: uploads<=4 downloads<=2
% rtol: 1e-8
n = 1024;
t = gpuArray((0:n-1) / n);
x = sin(2*pi*50*t) + 0.5 * sin(2*pi*120*t);
P = abs(fft(x)).^2 / n;
[~, k] = max(P(1:n/2));
fprintf('%d %.8e\n', gather(k), gather(sum(P)));
