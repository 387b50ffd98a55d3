% Matrix products, transposes and a Gram matrix on the device.
% budget: uploads<=4 downloads<=3
% Downloads corrected from 2 (below the ideal): B \ b must decide MATLAB's singularity warnings
% when it runs (one read back of the pivot and condition facts), and the script gathers two results.
% rtol: 1e-9
A = gpuArray(reshape(cos(1:2500), 50, 50));
B = A' * A + eye(50);
C = B \ ones(50, 1);
fprintf('%.8e %.8e\n', gather(trace(B)), gather(sum(C)));
