% Monte-Carlo with an integer LCG computed in double arithmetic (no rand at all).
% budget: uploads<=4 downloads<=2
% rtol: 1e-9
if ~exist('M','var'), M = 20000; end
if ~exist('T','var'), T = 8; end
idx = gpuArray(reshape(0:M-1, [M 1]));
acc = zeros(M, 1, 'gpuArray');
for t = 1:T
    salt = (t-1) * 2 * M;
    state = mod(1664525 .* (idx + salt) + 1013904223, 2^32);
    u = state / 2^32;
    acc = acc + u;
end
fprintf('%.10e\n', gather(sum(acc)));
