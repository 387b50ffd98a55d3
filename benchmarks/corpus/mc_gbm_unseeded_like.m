% GBM with randn(...,'like',S); unseeded, so only statistics are compared.
% budget: uploads<=4 downloads<=2
% rtol: 0
if ~exist('M','var'), M = 20000; end
if ~exist('T','var'), T = 16; end
S = 100 * ones(M, 1, 'like', gpuArray(single(0)));
drift = single((0.05 - 0.5*0.2^2)/252); vol = single(0.2*sqrt(1/252));
for t = 1:T
    S = S .* exp(drift + vol .* randn(size(S), 'like', S));
end
m = gather(mean(S));
fprintf('%d\n', abs(m - 100*exp(0.05*T/252)) < 1);
fprintf('%s\n', class(m));
