% uint8 image: mean 'native' and 'double', sum default outtype, max.
% budget: uploads<=4 downloads<=6
% rtol: 0
I = gpuArray(uint8(mod(reshape(1:3*40*30, 40, 30, 3) * 7, 256)));
m1 = mean(I, [1 2], 'native');
m2 = mean(I, [1 2]);
s = sum(I, 'all');
fprintf('%s %s %s\n', classUnderlying(m1), classUnderlying(m2), classUnderlying(s));
fprintf('%g ', gather(m1(:)), gather(m2(:)), gather(s)); fprintf('\n');
