% Signal pipeline: FIR filter, smoothing convolution, FFT power spectrum.
% Parameters: n samples per channel (even), c channels, L filter taps,
% gpu (1: explicit gpuArray inputs). Inputs are closed-form chirps and tones.
if ~exist('n', 'var'), n = 2^16; end
if ~exist('c', 'var'), c = 8; end
if ~exist('L', 'var'), L = 64; end
if ~exist('gpu', 'var'), gpu = 0; end
fs = 8000;
t = (0:n-1)' / fs;
if gpu
    t = gpuArray(t);
end
ch = 1:c;
X = sin(2*pi*(50*ch) .* t) + 0.5 * cos(2*pi*(120 + 7*ch) .* t) + 0.1 * sin(2*pi*300*t.^2);
taps = (0:L-1)';
b = 0.54 - 0.46 * cos(2*pi*taps / (L - 1));   % Hamming-window smoothing FIR
b = b / sum(b);
Y = filter(b, 1, X);
Z = conv2(Y, [0.25; 0.5; 0.25], 'same');
F = fft(Z);
P = abs(F(1:n/2, :)).^2 / n;
f = (0:n/2-1)' * (fs / n);
centroid = sum(P .* f, 1) ./ sum(P, 1);       % spectral centroid per channel
fprintf('checksum %.10e\n', gather(sum(centroid) + sum(P(:)) / n));
