% A loop writing and reading different row blocks each iteration (A(r0:r1, :) = ..., end arithmetic).
% budget: uploads<=1 downloads<=2
% rtol: 1e-12
if ~exist('m','var'), m = 64; end
if ~exist('w','var'), w = 30; end
A = zeros(m, w, 'gpuArray');
src = gpuArray(reshape(1:m*w, m, w) / (m*w));
for r0 = 1:8:m
    r1 = min(r0 + 7, m);
    A(r0:r1, :) = src(r0:r1, end:-1:1) * r0;
    A(r0, [1 end]) = -1;
end
B = A(end-9:end, 2:2:end);
fprintf('%.12e %.12e\n', gather(sum(A(:))), gather(sum(B(:))));
