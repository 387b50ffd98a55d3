% statistics with weights, dims and flags on device data
% budget: uploads<=4 downloads<=12
% rtol: 1e-10
x = gpuArray(reshape(sin(1:120) .* (1:120) / 40, 12, 10));
x(5, 3) = NaN;
a = std(x, 1, 2, 'omitnan');
b = var(x, [], 1, 'omitnan');
c = median(x, 2, 'omitnan');
d = mode(round(x), 1);
e = prctile(x(:, 1), [10 50 90]);
f = mean(x, 'all', 'omitnan');
g = range(x, 2);
fprintf('%.8g %.8g %.8g %.8g %.8g %.8g %.8g\n', gather(sum(a)), gather(sum(b)), gather(sum(c)), gather(sum(d)), gather(sum(e)), gather(f), gather(sum(g, 'omitnan')));
