% repmat, kron and reshape/permute on the device.
% budget: uploads<=4 downloads<=3
% Downloads corrected from 2 (below the ideal): the last line gathers three separate results.
% rtol: 1e-12
A = gpuArray([1 2; 3 4]);
R = repmat(A, 3, 2);
K = kron(A, ones(2));
P = permute(reshape(1:24, 2, 3, 4), [3 1 2]) .* gpuArray(1);
fprintf('%g %g %g\n', gather(sum(R(:) .* (1:numel(R))')), gather(sum(K(:) .* (1:numel(K))')), gather(sum(P(:) .* (1:24)')));
