% sorting forms: descend on matrices, integer data, sortrows, issorted, maxk
% budget: uploads<=4 downloads<=10
% rtol: 0
x = gpuArray(reshape(mod((1:30) * 7, 13), 6, 5));
[s, i] = sort(x, 2, 'descend');
t = sort(int16(x));
r = sortrows(x, [2 -1]);
k = maxk(x(:), 3);
u = issorted(sort(x(:)));
fprintf('%g ', gather(s(1, :)), gather(i(1, :)), gather(t(:, 1)), gather(r(:, 1)), gather(k), gather(u)); fprintf('\n');
