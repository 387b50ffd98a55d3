% histcounts of device data.
% budget: uploads<=4 downloads<=2
% rtol: 0
x = gpuArray(mod((1:5000) * 0.37, 10));
[n, e] = histcounts(x, 0:1:10);
fprintf('%d ', gather(n)); fprintf('\n%g\n', gather(sum(e)));
