% any/all/xor/not along dims; find with n and direction; nnz per column
% budget: uploads<=4 downloads<=12
% rtol: 0
x = gpuArray(reshape(mod((1:60) * 13, 17), 6, 10));
a = any(x > 15, 1);
b = all(x > 0, 2);
c = xor(x > 8, x < 12);
f = find(x > 10, 3);
g = find(x > 10, 2, 'last');
[r, cidx] = find(x == 16);
n = sum(x > 5, 1);
fprintf('%d ', gather(a), gather(b)); fprintf('\n');
fprintf('%d %d\n', gather(nnz(c)), gather(sum(n)));
fprintf('%d ', gather(f), gather(g), gather(r), gather(cidx)); fprintf('\n');
