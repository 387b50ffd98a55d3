% Moving averages: filter, conv and movmean on a gpuArray signal.
% budget: uploads<=4 downloads<=4
% rtol: 1e-9
x = gpuArray(sin((1:4000) / 50) + 0.1 * cos((1:4000) * 3));
y1 = filter(ones(1, 8) / 8, 1, x);
y2 = conv(x, ones(1, 8) / 8, 'same');
y3 = movmean(x, 9);
fprintf('%.8e %.8e %.8e\n', gather(sum(y1)), gather(sum(y2)), gather(sum(y3)));
