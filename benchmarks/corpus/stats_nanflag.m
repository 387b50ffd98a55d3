% Statistics with NaNs: mean/var/std/median omitnan along dims.
% budget: uploads<=4 downloads<=6
% rtol: 1e-9
X = reshape(cos(1:600), 30, 20);
X(5, :) = NaN; X(:, 7) = NaN;
G = gpuArray(X);
m = mean(G, 1, 'omitnan');
v = var(G, 0, 2, 'omitnan');
s = std(G, 1, 'all', 'omitnan');
md = median(G, 1, 'omitnan');
fprintf('%.10g %.10g %.10g %.10g\n', gather(sum(m, 'omitnan')), gather(sum(v, 'omitnan')), gather(s), gather(sum(md, 'omitnan')));
