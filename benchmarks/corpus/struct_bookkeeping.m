% Results kept in a struct array around device work.
% budget: uploads<=4 downloads<=6
% rtol: 1e-10
X = gpuArray(reshape(cos(1:5000), 100, 50));
res = struct('name', {}, 'value', {});
ops = {'sum', 'max', 'min', 'mean'};
for k = 1:numel(ops)
    f = str2func(ops{k});
    res(k).name = ops{k};
    res(k).value = f(X(:));
end
for k = 1:numel(res)
    fprintf('%s=%.10g\n', res(k).name, gather(res(k).value));
end
