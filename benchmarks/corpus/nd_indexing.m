% 3-D indexing, deletion of pages, end arithmetic and logical masks on pages
% budget: uploads<=6 downloads<=8
% rtol: 0
x = gpuArray(reshape(1:60, 3, 4, 5));
x(:, :, 2) = [];
y = x(end, end-1:end, [1 end]);
m = x(:, :, 1) > 5;
z = x(:, :, 3); z(m) = 0;
x(2, :, :) = x(2, :, :) * 10;
fprintf('%g %g %g %d\n', gather(sum(y(:))), gather(sum(z(:))), gather(sum(x(:))), numel(x));
