% Elementwise math chain (RunMat's "elementwise-math" workload), result consumed.
% Parameters (override with --define): n, gpu (1: explicit gpuArray, 0: plain arrays)
if ~exist('n', 'var'), n = 1e6; end
if ~exist('gpu', 'var'), gpu = 0; end
if gpu
    x = single(linspace(gpuArray(0), 4*pi, n));   % MATLAB's linspace has no 'like'
else
    x = single(linspace(0, 4*pi, n));
end
y0 = sin(x) .* exp(-x / 10);
y1 = y0 .* cos(x / 4) + 0.25 * y0 .^ 2;
y2 = tanh(y1) + 0.1 * y1;
s = sum(y2);
fprintf('checksum %.6e\n', gather(s));
