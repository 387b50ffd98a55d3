% Logical-mask reads and writes on a gpuArray.
% budget: uploads<=4 downloads<=4
% Downloads corrected from 3 (below the ideal): A(mask) has a data-dependent size (one count
% read back), A(mask2) = B must raise MATLAB's element-count error when nnz(mask2) differs from
% numel(B) (one count read back; mask2 is computed anew), and the script gathers two results.
% A(A < -0.5) = 0 reads nothing back.
% rtol: 1e-12
A = gpuArray(reshape(sin(1:4000), 40, 100));
A(A < -0.5) = 0;
A(abs(A) > 0.9) = A(abs(A) > 0.9) * 2;
cnt = nnz(A == 0);
fprintf('%d %.10e\n', gather(cnt), gather(sum(A(:))));
