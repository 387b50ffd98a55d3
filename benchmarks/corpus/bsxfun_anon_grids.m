% bsxfun with anonymous and named functions on grids built by meshgrid/ndgrid of gpuArray vectors.
% budget: uploads<=1 downloads<=3
% rtol: 1e-10
if ~exist('n','var'), n = 120; end
x = gpuArray(linspace(-2, 2, n));
[X, Y] = meshgrid(x, x(1:2:end));
[P, Q] = ndgrid(x(1:10), x(1:20));
R = bsxfun(@hypot, X(1, :), Y(:, 1));
G = bsxfun(@(a, b) exp(-a.^2) .* cos(b), P, Q(1, :));
H = bsxfun(@max, X, 0.25);
fprintf('%.10e %.10e %.10e\n', gather(sum(R(:))), gather(sum(G(:))), gather(sum(H(:))));
