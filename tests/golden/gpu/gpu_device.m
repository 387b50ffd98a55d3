% gpuDevice, wait, reset and use of a stale gpuArray
d = gpuDevice;
fprintf('%s %g\n', class(d), d.Index);
fprintf('count %d canUse %d\n', gpuDeviceCount, canUseGPU);
G = gpuArray(magic(3));
wait(d);
fprintf('%d\n', existsOnGPU(G));
reset(d);
fprintf('%d\n', existsOnGPU(G));
try
    x = gather(G);
catch err
    fprintf('%s\n%s\n', err.identifier, err.message);
end
try
    y = G + 1;
catch err
    fprintf('%s\n', err.identifier);
end
H = gpuArray([1 2 3]);
fprintf('%g\n', gather(sum(H)));
d1 = gpuDevice(1);
fprintf('%g\n', d1.Index);
