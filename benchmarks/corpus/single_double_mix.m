% single/double/integer class rules in device expressions
% budget: uploads<=6 downloads<=10
% rtol: 1e-6
a = gpuArray(single(1:10) / 3);
b = a + 1/3;
c = double(a) .* 2;
d = a .* int8(2);
e = [a, 1];
f = sum(a, 'double'); g = sum(a, 'native'); h = mean(a);
fprintf('%s %s %s %s %s %s %s\n', classUnderlying(b), classUnderlying(c), classUnderlying(d), classUnderlying(e), class(gather(f)), class(gather(g)), classUnderlying(h));
fprintf('%.6g %.6g %d %.6g\n', gather(sum(b)), gather(sum(c)), gather(sum(d)), gather(f));
