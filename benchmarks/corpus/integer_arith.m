% Integer class arithmetic on the device with saturation and rounding.
% budget: uploads<=4 downloads<=4
% rtol: 0
a = gpuArray(int32(reshape(1:1000, 20, 50)));
b = a * 3 - int32(7);
c = idivide(b, int32(4));
d = mod(b, int32(11));
e = int8(a) + int8(100);
fprintf('%d %d %d %d\n', gather(sum(c(:))), gather(sum(d(:))), gather(max(e(:))), gather(min(e(:))));
fprintf('%s %s\n', classUnderlying(c), classUnderlying(e));
