% accumarray with sizes, functions and fill values; histcounts normalization
% budget: uploads<=6 downloads<=10
% rtol: 1e-12
subs = gpuArray(mod((1:200)', 7) + 1);
vals = gpuArray(sin(1:200)');
a = accumarray(subs, vals);
b = accumarray(subs, vals, [9 1]);
c = accumarray(subs, vals, [], @max);
d = accumarray(subs, 1);
h = histcounts(vals, 10, 'Normalization', 'probability');
fprintf('%.10f %.10f %.10f %g %.10f\n', gather(sum(a)), gather(sum(b)), gather(sum(c)), gather(sum(d)), gather(sum(h)));
