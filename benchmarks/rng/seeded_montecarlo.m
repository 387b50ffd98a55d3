% Monte-Carlo geometric Brownian motion written as users write it: seeded,
% single-class scalars, no gpuArray (auto-offload moves it to the device).
% Parameters: M paths, T steps, philox (1: rng(seed, 'philox'), the faster
% device stream; 0: rng(seed), the default twister, whose numbers the CPU
% run prints exactly).
if ~exist('M', 'var'), M = 1e6; end
if ~exist('T', 'var'), T = 16; end
if ~exist('philox', 'var'), philox = 0; end
if philox
    rng(42, 'philox');
else
    rng(42);
end
S0 = single(100); mu = single(0.05); sigma = single(0.2); dt = single(1 / 252);
drift = (mu - 0.5 * sigma^2) * dt;
scale = sigma * sqrt(dt);
S = S0 * ones(M, 1, 'single');
for t = 1:T
    Z = randn(M, 1, 'single');
    S = S .* exp(drift + scale .* Z);
end
price = mean(S);
fprintf('checksum %.6e\n', price);
