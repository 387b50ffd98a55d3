% Twin of ../mc_pi_plain.m written with explicit gpuArray draws (for the GPU table).
if ~exist('n','var'), n = 50000; end
rng(1);
x = rand(n, 1, 'gpuArray'); y = rand(n, 1, 'gpuArray');
inside = (x.^2 + y.^2) <= 1;
fprintf('%.10f\n', gather(4 * mean(inside)));
