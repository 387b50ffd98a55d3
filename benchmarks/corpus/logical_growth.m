% logical masks, deletion and growth of device arrays in a loop
% budget: uploads<=8 downloads<=12
% rtol: 1e-12
v = gpuArray(rand(1, 50) > 2);   % all false
x = gpuArray(1:40);
x(x > 30) = [];
x(end+1) = 99;
x(mod(x, 3) == 0) = -x(mod(x, 3) == 0);
y = [];
for k = 1:5
    y = [y; x(k:k+2)];
end
any1 = any(x < 0); all1 = all(v == 0);
fprintf('%g %g %g %d %d\n', gather(sum(x)), gather(sum(y(:))), numel(x), gather(any1), gather(all1));
