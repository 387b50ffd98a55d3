% Twin of ../plain_loop_scalar_updates.m written with an explicit gpuArray (for the GPU table).
if ~exist('n','var'), n = 20000; end
if ~exist('T','var'), T = 10; end
x = gpuArray(linspace(0, 1, n));
acc = zeros(1, n, 'gpuArray');
step = 0;
for t = 1:T
    step = step + 1;
    w = 1 / (step + 1);
    acc = acc + w * sin(x * t);
end
fprintf('%.10e\n', gather(sum(acc)));
