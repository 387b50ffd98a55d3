% Clipping by logical masks inside a loop: x(x > t) = t, NaN gaps filled with A(isnan(A)) = 0.
% budget: uploads<=1 downloads<=2
% rtol: 1e-12
if ~exist('n','var'), n = 5000; end
A = gpuArray(reshape(sin(1:n) .* (1:n) / n, 50, []));
A(mod(1:numel(A), 97) == 0) = NaN;
A(isnan(A)) = 0;
for t = [0.9 0.7 0.5 0.3]
    A(A > t) = t;
    A(A < -t) = -t;
end
fprintf('%.12e %.12e\n', gather(sum(A(:))), gather(max(abs(A(:)))));
