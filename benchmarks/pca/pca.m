% PCA by block power (subspace) iteration: matmul-heavy, result consumed.
% Parameters (override with --define): n samples, d features, k components,
% iters power iterations, gpu (1: explicit gpuArray inputs).
% Inputs are closed-form (sin/cos of an index grid) so every peer computes the
% same checksum: the sum of the top-k eigenvalues of the covariance matrix.
if ~exist('n', 'var'), n = 4000; end
if ~exist('d', 'var'), d = 256; end
if ~exist('k', 'var'), k = 8; end
if ~exist('iters', 'var'), iters = 20; end
if ~exist('gpu', 'var'), gpu = 0; end
i = (1:n)';
j = 1:d;
if gpu
    i = gpuArray(i);
end
X = sin(0.001 * i .* j) + 0.5 * cos(0.37 * i + 0.11 * j) + 0.01 * i / n;
Xc = X - mean(X, 1);
C = (Xc' * Xc) / (n - 1);
V = cos(0.1 * (1:d)' * (1:k));
for t = 1:iters
    V = C * V;
    [V, ~] = qr(V, 0);
end
lambda = sum(sum(V .* (C * V)));  % trace(V' * C * V): sign-free, unlike V itself
fprintf('checksum %.10e\n', gather(lambda));
