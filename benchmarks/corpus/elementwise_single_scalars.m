% Single-precision gpuArray chain with single(...) scalar constants.
% budget: uploads<=4 downloads<=2
% rtol: 1e-4
if ~exist('n','var'), n = 100000; end
a = single(0.5); b = single(2); c = single(-1.25);
x = linspace(single(-3), single(3), n);
x = gpuArray(x);
y = a*x.^2 + b*x + c;
z = sqrt(abs(y)) ./ (1 + exp(-y));
fprintf('%s %.5e\n', classUnderlying(z), gather(sum(z)));
