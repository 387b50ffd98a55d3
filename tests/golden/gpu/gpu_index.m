% indexing and indexed assignment on gpuArrays
G = gpuArray(reshape(1:12, 3, 4));
a = G(2, 3);
fprintf('%s %g\n', class(a), gather(a));
b = G(:, end);
fprintf('%s %d %d\n', class(b), size(b, 1), size(b, 2));
disp(gather(b))
c = G(G > 9);
disp(gather(c)')
d = G([1 3], [2 4]);
disp(gather(d))
G(2, :) = 0;
disp(gather(G))
G(1, 1) = -5;
fprintf('%g\n', gather(G(1)));
G(G < 0) = 99;
fprintf('%g\n', gather(G(1, 1)));
v = gpuArray(1:5);
v(7) = 7;
fprintf('%s %d\n', class(v), numel(v));
disp(gather(v))
v(2) = [];
disp(gather(v))
idx = gpuArray([3 1]);
w = G(idx);
fprintf('%s %g %g\n', class(w), gather(w));
x = gpuArray(zeros(2, 2));
x(:) = 1:4;
disp(gather(x))
