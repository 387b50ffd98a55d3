% ../mc_gbm_seeded_single.m with the Philox generator chosen explicitly: rng(seed, 'philox'), single-class scalars, randn with 'gpuArray'.
if ~exist('M','var'), M = 20000; end
if ~exist('T','var'), T = 16; end
rng(42, 'philox');
S0 = single(100); mu = single(0.05); sigma = single(0.2); dt = single(1/252);
S = S0 * ones(M, 1, 'single', 'gpuArray');
for t = 1:T
    Z = randn(M, 1, 'single', 'gpuArray');
    S = S .* exp((mu - 0.5*sigma^2)*dt + sigma*sqrt(dt)*Z);
end
fprintf('%.6e\n', gather(mean(S)));
