% 2-D heat diffusion with an explicit stencil by indexing, in a loop.
% budget: uploads<=4 downloads<=2
% rtol: 1e-9
if ~exist('n','var'), n = 64; end
if ~exist('T','var'), T = 20; end
U = zeros(n, 'gpuArray');
U(n/2-2:n/2+2, n/2-2:n/2+2) = 1;
for t = 1:T
    U(2:end-1, 2:end-1) = U(2:end-1, 2:end-1) + 0.2 * (U(1:end-2, 2:end-1) + U(3:end, 2:end-1) + U(2:end-1, 1:end-2) + U(2:end-1, 3:end) - 4*U(2:end-1, 2:end-1));
end
fprintf('%.10e\n', gather(sum(U(:))));
