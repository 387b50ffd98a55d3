% reshape/permute/cat/squeeze/rot90/kron/triu on device data
% budget: uploads<=4 downloads<=8
% rtol: 0
x = gpuArray(reshape(1:24, 2, 3, 4));
a = permute(x, [3 1 2]);
b = cat(3, x, x * 2);
c = squeeze(sum(x, 1));
d = rot90(reshape(x(1:12), 3, 4), 2);
e = triu(reshape(x(1:16), 4, 4), 1) + tril(reshape(x(1:16), 4, 4), -1)';
f = fliplr(circshift(reshape(x(1:6), 2, 3), 1, 2));
fprintf('%g %g %g %g %g %g\n', gather(a(3, 2, 1)), gather(sum(b(:))), gather(sum(c(:))), gather(d(1, 1)), gather(sum(e(:))), gather(f(1, 1)));
fprintf('%d ', size(a), size(b), size(c)); fprintf('\n');
