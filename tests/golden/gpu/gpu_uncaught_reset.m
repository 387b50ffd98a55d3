G = gpuArray([1 2 3]);
fprintf('%g\n', gather(sum(G)));
reset(gpuDevice);
x = gather(G);
disp('not reached')
