% Twin of ../heat_circshift_plain.m written with an explicit gpuArray (for the GPU table).
if ~exist('n','var'), n = 64; end
if ~exist('T','var'), T = 20; end
U = zeros(n, 'gpuArray'); U(n/2, n/2) = 100;
for t = 1:T
    U = U + 0.1 * (circshift(U, 1, 1) + circshift(U, -1, 1) + circshift(U, 1, 2) + circshift(U, -1, 2) - 4*U);
end
fprintf('%.10e %.10e\n', gather(sum(U(:))), gather(max(U(:))));
