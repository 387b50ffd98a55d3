% signal chain: window, fft magnitude, filter, conv valid, envelope
% budget: uploads<=6 downloads<=8
% rtol: 1e-8
n = 1024;
t = gpuArray((0:n-1)' / n);
s = sin(2*pi*50*t) + 0.5*sin(2*pi*120*t);
w = 0.5 - 0.5*cos(2*pi*(0:n-1)'/(n-1));
S = abs(fft(s .* w));
[pk, loc] = max(S(1:n/2));
y = filter([1 -0.9], 1, s);
z = conv(s, ones(5, 1)/5, 'valid');
env = movmax(abs(s), 9);
fprintf('%.6f %d %.8f %.8f %.8f\n', gather(pk), gather(loc), gather(sum(y)), gather(sum(z)), gather(mean(env)));
