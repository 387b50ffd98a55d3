% A 2-D Gaussian on a meshgrid, plain arrays.
% budget: uploads<=4 downloads<=2
% rtol: 1e-10
if ~exist('n','var'), n = 300; end
[X, Y] = meshgrid(linspace(-3, 3, n), linspace(-2, 2, n));
G = exp(-(X.^2 + 2*Y.^2)) .* cos(X .* Y);
fprintf('%.10e\n', sum(G(:)) * (6/n) * (4/n));
