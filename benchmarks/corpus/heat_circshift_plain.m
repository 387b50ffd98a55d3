% 2-D heat diffusion with circshift on plain arrays.
% budget: uploads<=4 downloads<=2
% rtol: 1e-9
if ~exist('n','var'), n = 64; end
if ~exist('T','var'), T = 20; end
U = zeros(n); U(n/2, n/2) = 100;
for t = 1:T
    U = U + 0.1 * (circshift(U, 1, 1) + circshift(U, -1, 1) + circshift(U, 1, 2) + circshift(U, -1, 2) - 4*U);
end
fprintf('%.10e %.10e\n', sum(U(:)), max(U(:)));
