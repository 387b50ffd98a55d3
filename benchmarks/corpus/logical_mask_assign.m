% Logical-mask reads and writes on a gpuArray.
% budget: uploads<=4 downloads<=3
% rtol: 1e-12
A = gpuArray(reshape(sin(1:4000), 40, 100));
A(A < -0.5) = 0;
A(abs(A) > 0.9) = A(abs(A) > 0.9) * 2;
cnt = nnz(A == 0);
fprintf('%d %.10e\n', gather(cnt), gather(sum(A(:))));
