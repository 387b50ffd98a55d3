% scans, diff, prod and trapz along dims, with 'reverse' and 'omitnan'
% budget: uploads<=4 downloads<=8
% rtol: 1e-9
x = gpuArray(reshape(sin(1:200) * 3, 20, 10));
a = cumsum(x, 2, 'reverse');
b = cumprod(1 + x / 10, 1);
c = diff(x, 2, 1);
d = prod(1 + x / 100, 2);
x(4, 7) = NaN;
e = sum(x, 1, 'omitnan');
f = trapz(x(:, 1:3));
fprintf('%.12g %.12g %.12g %.12g %.12g %.12g\n', gather(sum(a(:))), gather(sum(b(:))), gather(sum(c(:))), gather(sum(d)), gather(sum(e)), gather(sum(f)));
