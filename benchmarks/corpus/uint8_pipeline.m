% uint8 image pipeline: saturating arithmetic, mixed with double scalars
% budget: uploads<=4 downloads<=8
% rtol: 0
img = gpuArray(uint8(mod((1:120)' * (1:90), 256)));
a = img * 1.7 + 20;
b = img - 200;
c = 255 - img;
d = img / 3;
e = abs(int16(img) - 128);
f = max(img, 100);
g = img > 128 & img < 200;
fprintf('%d %d %d %d %d %d %d\n', gather(sum(a(:))), gather(sum(b(:))), gather(sum(c(:))), gather(sum(d(:))), gather(sum(e(:))), gather(sum(f(:))), gather(nnz(g)));
fprintf('%s %s %s %s\n', classUnderlying(a), classUnderlying(d), classUnderlying(e), class(gather(g)));
