% Class rules: single gpuArray op double scalar stays single; integer-valued doubles.
% budget: uploads<=4 downloads<=4
% rtol: 1e-5
x = gpuArray(single(1:1000));
y = x * 0.1 + 2;
z = floor(y) + rem(x, 3) - mod(-x, 7);
fprintf('%s %s %.6e\n', classUnderlying(y), classUnderlying(z), gather(sum(z)));
