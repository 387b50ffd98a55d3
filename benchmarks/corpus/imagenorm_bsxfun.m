% Normalisation written with bsxfun (pre-R2016b style).
% budget: uploads<=4 downloads<=2
% rtol: 1e-9
if ~exist('n','var'), n = 300; end
if ~exist('d','var'), d = 40; end
X = gpuArray(reshape(sin(1:n*d), n, d));
mu = mean(X, 1);
sd = std(X, 0, 1);
Z = bsxfun(@rdivide, bsxfun(@minus, X, mu), sd);
fprintf('%.8e %.8e\n', gather(sum(Z(:).^2)), gather(max(abs(Z(:)))));
