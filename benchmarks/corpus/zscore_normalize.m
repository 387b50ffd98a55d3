% zscore and normalize forms on a gpuArray matrix.
% budget: uploads<=4 downloads<=4
% rtol: 1e-9
X = gpuArray(reshape(sin(1:1200) + (1:1200) / 600, 100, 12));
Z = zscore(X);
N1 = normalize(X);
N2 = normalize(X, 'range');
fprintf('%.8e %.8e %.8e\n', gather(sum(abs(Z(:)))), gather(sum(abs(N1(:)))), gather(sum(N2(:))));
