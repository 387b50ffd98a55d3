% Growth and deletion of gpuArray rows and columns.
% budget: uploads<=8 downloads<=2
% rtol: 1e-12
A = gpuArray(magic(4));
A(end+1, :) = 1:4;
A(:, 2) = [];
A(6, 5) = 9;
A([1 3], :) = [];
fprintf('%d %d %g\n', size(A, 1), size(A, 2), gather(sum(A(:))));
