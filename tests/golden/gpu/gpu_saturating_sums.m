% integer sums and products of gpuArrays accumulate in the class,
% saturating at each step (MATLAB's 'native' sums and integer scans)
x = gpuArray(int8([127 10 -20; 100 100 -100]));
a = sum(x, 2, 'native');
fprintf('%s %s\n', class(a), classUnderlying(a));
disp(gather(a))
disp(gather(cumsum(x, 2)))
disp(gather(cumsum(x, 2, 'reverse')))
disp(gather(sum(x, 'all', 'native')))
disp(gather(sum(x, 2)))
disp(gather(prod(gpuArray(int16([300 300 -1 2])), 'native')))
disp(gather(cumprod(gpuArray(uint8([16 16 0 3])), 'reverse')))
disp(gather(cumprod(gpuArray(int32([-65536 65536 -1 2])))))
p = gpuArray(int8(reshape([100 100 -100 0], 1, 2, 2)));
fprintf('%d %d\n', gather(sum(p, [2 3], 'native')), gather(sum(p, [3 2], 'native')));
t = gpuArray([true false true]);
fprintf('%s %d %d\n', classUnderlying(sum(t, 'native')), gather(sum(t, 'native')), gather(prod(t, 'native')));
