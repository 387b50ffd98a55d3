% GBM in double precision with the Philox generator chosen explicitly.
% budget: uploads<=4 downloads<=2
% rtol: 1e-9
if ~exist('M','var'), M = 20000; end
if ~exist('T','var'), T = 8; end
rng(7, 'philox');
S = 100 * ones(M, 1, 'gpuArray');
for t = 1:T
    S = S .* exp(0.0001 + 0.01 * randn(M, 1, 'gpuArray'));
end
fprintf('%.8e\n', gather(mean(S)));
