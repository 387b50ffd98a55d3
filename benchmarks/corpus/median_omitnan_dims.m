% Robust statistics: median with 'omitnan' along each dimension of data with NaN gaps.
% budget: uploads<=1 downloads<=3
% rtol: 1e-12
if ~exist('n','var'), n = 60; end
X = gpuArray(reshape(sin((1:n*40) * 0.37), n, 40));
X(mod(1:numel(X), 7) == 0) = NaN;
X(:, 5) = NaN;
m1 = median(X, 1, 'omitnan');
m2 = median(X, 2, 'omitnan');
m3 = median(reshape(X, n/2, 2, 40), 3, 'omitnan');
fprintf('%.12e %.12e %.12e\n', gather(sum(m1, 'omitnan')), gather(sum(m2)), gather(sum(m3(:))));
