% Monte-Carlo price of a European call in BATCHES independent batches:
% each batch walks PATHS paths of STEPS log-normal steps on the GPU (every
% step's numbers are consumed) and averages the payoff. Every batch seeds
% its own streams (rng per iteration, as MATLAB recommends), so the
% estimate does not depend on where a batch ran.
prices = zeros(1, BATCHES);
parfor b = 1:BATCHES
    rng(b);
    s = 100 * ones(PATHS, 1, 'gpuArray');
    for k = 1:STEPS
        s = s .* exp(-0.5 * 0.01^2 + 0.01 * randn(PATHS, 1, 'gpuArray'));
    end
    prices(b) = gather(mean(max(s - 100, 0)));
end
estimate = mean(prices);
