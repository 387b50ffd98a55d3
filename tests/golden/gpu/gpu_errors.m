% MATLAB errors raised by gpuArray code
try
    gpuArray({1, 2});
catch err
    disp('cell arrays cannot be gpuArrays')
end
try
    gpuArray([1 2 3]) + gpuArray([1 2]);
catch err
    disp(err.identifier)
    disp(err.message)
end
try
    existsOnGPU(5);
catch err
    disp(err.identifier)
end
try
    x = gpuArray(1:3);
    y = x(5);
catch err
    disp(err.identifier)
end
try
    gpuArray(ones(2, 3)) * gpuArray(ones(2, 3));
catch err
    disp(err.identifier)
end
