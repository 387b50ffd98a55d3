% Monte-Carlo geometric Brownian motion (RunMat's workload), result consumed.
% Parameters: M paths, T steps, gpu (1: explicit gpuArray)
if ~exist('M', 'var'), M = 1e5; end
if ~exist('T', 'var'), T = 64; end
if ~exist('gpu', 'var'), gpu = 0; end
S0 = 100; mu = 0.05; sigma = 0.2; dt = 1 / 252;
drift = (mu - 0.5 * sigma^2) * dt;
scale = sigma * sqrt(dt);
if gpu
    S = S0 * ones(M, 1, 'single', 'gpuArray');
else
    S = S0 * ones(M, 1, 'single');
end
for t = 1:T
    if gpu
        Z = randn(M, 1, 'single', 'gpuArray');
    else
        Z = randn(M, 1, 'single');
    end
    S = S .* exp(drift + scale .* Z);
end
price = mean(S);
fprintf('checksum %.6e\n', gather(price));
