% Periodic boundaries with circshift, mirror symmetry with flip/fliplr, tiling with repmat.
% budget: uploads<=1 downloads<=2
% rtol: 1e-12
if ~exist('n','var'), n = 48; end
if ~exist('T','var'), T = 10; end
U = gpuArray(reshape(cos(1:n*n), n, n));
for t = 1:T
    U = 0.5 * U + 0.125 * (circshift(U, [1 0]) + circshift(U, [-1 0]) + circshift(U, 1, 2) + circshift(U, -1, 2));
end
S = (U + fliplr(U) + flipud(U) + flip(flip(U, 1), 2)) / 4;
Tiled = repmat(S(1:4, 1:4), 3, 2);
fprintf('%.12e %.12e\n', gather(sum(S(:) .^ 2)), gather(sum(Tiled(:))));
