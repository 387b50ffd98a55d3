% Small-array mixed script: many tiny operations under scalar control flow.
% Every array here is far below any GPU break-even size, so automatic offload
% must leave it on the host: matfuse with auto-offload must not be slower than
% matfuse on the host alone. Parameters: iters, gpu (1: explicit gpuArray state,
% the naive offload, shown for contrast).
if ~exist('iters', 'var'), iters = 2000; end
if ~exist('gpu', 'var'), gpu = 0; end
acc = 0;
v = zeros(1, 16);
p = [1; 2; 3];
if gpu
    p = gpuArray(p);
    v = gpuArray(v);
end
for k = 1:iters
    a = 0.001 * k;
    R = [cos(a) -sin(a) 0; sin(a) cos(a) 0; 0 0 1];
    p = R * p + [0.01; -0.02; 0.005];
    slot = mod(k, 16) + 1;
    v(slot) = v(slot) + norm(p);
    w = linspace(0, 1, 8) * a;
    if max(p) > 2
        acc = acc + sum(w.^2) / k;
    else
        acc = acc - min(p) * mean(w);
    end
end
s = acc + sum(v) + sum(p);
fprintf('checksum %.10e\n', gather(s));
