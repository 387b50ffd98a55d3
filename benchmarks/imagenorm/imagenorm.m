% 4K image batch normalisation (RunMat's workload), result consumed.
% Parameters: B images of H x W, gpu (1: explicit gpuArray)
if ~exist('B', 'var'), B = 2; end
if ~exist('H', 'var'), H = 256; end
if ~exist('W', 'var'), W = 256; end
if ~exist('gpu', 'var'), gpu = 0; end
gain = 1.5; bias = 0.1; gamma = 0.8; eps0 = 1e-6;
if gpu
    imgs = rand(B, H, W, 'single', 'gpuArray');
else
    imgs = rand(B, H, W, 'single');
end
mu = mean(imgs, [2 3]);
sigma = sqrt(mean((imgs - mu).^2, [2 3]) + eps0);
out = max(((imgs - mu) ./ sigma) * gain + bias, 0).^gamma;
mse = mean((out - imgs).^2, 'all');
fprintf('checksum %.6e\n', gather(mse));
