% Matrix products, transposes and a Gram matrix on the device.
% budget: uploads<=4 downloads<=2
% rtol: 1e-9
A = gpuArray(reshape(cos(1:2500), 50, 50));
B = A' * A + eye(50);
C = B \ ones(50, 1);
fprintf('%.8e %.8e\n', gather(trace(B)), gather(sum(C)));
