% Statistics pipeline: zscore, covariance, histogram counts.
% Parameters: n observations, d variables, nbins histogram bins,
% gpu (1: explicit gpuArray inputs). Inputs are closed-form.
if ~exist('n', 'var'), n = 1e5; end
if ~exist('d', 'var'), d = 16; end
if ~exist('nbins', 'var'), nbins = 64; end
if ~exist('gpu', 'var'), gpu = 0; end
i = (1:n)';
j = 1:d;
if gpu
    i = gpuArray(i);
end
X = sin(0.7 * i + j) .* (1 + j / d) + cos(1e-4 * i .* j).^3;
Z = zscore(X);
C = cov(Z);
edges = linspace(-4, 4, nbins + 1);
counts = histcounts(Z(:), edges);
s = sum(C(:).^2) + sum(counts .* (1:nbins)) / numel(Z);
fprintf('checksum %.10e\n', gather(s));
