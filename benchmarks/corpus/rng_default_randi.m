% rng default then randi/rand/randn on the device match the host stream.
% budget: uploads<=4 downloads<=4
% rtol: 1e-12
rng('default');
a = randi(10, 1, 6, 'gpuArray');
b = rand(1, 3, 'gpuArray');
c = randn(2, 2, 'gpuArray');
fprintf('%g ', gather(a), gather(b), gather(c)); fprintf('\n');
