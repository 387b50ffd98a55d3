% Estimate pi with plain arrays (no gpuArray): auto-offload decides. Seeded twister.
% budget: uploads<=4 downloads<=2
% rtol: 1e-12
if ~exist('n','var'), n = 50000; end
rng(1);
x = rand(n, 1); y = rand(n, 1);
inside = (x.^2 + y.^2) <= 1;
fprintf('%.10f\n', 4 * mean(inside));
