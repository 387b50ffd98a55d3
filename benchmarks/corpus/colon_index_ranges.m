% Range indexing: A(2:end-1), columns, rows, end arithmetic on the device.
% budget: uploads<=4 downloads<=2
% rtol: 1e-12
A = gpuArray(reshape(1:120, 10, 12));
A(2:end-1, :) = A(2:end-1, :) * 2;
A(:, 1) = A(:, end);
A(end, 2:3) = [7 8];
B = A(1:2:end, end:-1:1);
fprintf('%g %g\n', gather(sum(A(:))), gather(sum(B(:) .* (1:numel(B))')));
