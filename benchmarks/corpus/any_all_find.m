% any/all/find/nnz on device data, incl. NaN handling.
% budget: uploads<=4 downloads<=8
% rtol: 0
x = gpuArray([0 3 NaN 0 5 0 -1]);
fprintf('%d %d %d\n', gather(any(x)), gather(all(x)), gather(nnz(x)));
fprintf('%d ', gather(find(x > 0))); fprintf('\n');
fprintf('%d %d\n', gather(any(gpuArray([0 NaN]))), gather(all(isnan(x) | x >= -1)));
