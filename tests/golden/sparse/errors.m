% MATLAB-style errors for what sparse matrices cannot do.
try
    sparse(int8([1 2]));
catch err
    disp(err.identifier)
end
try
    sparse([1 2], [1 2 3], 1);
catch err
    disp(err.identifier)
end
try
    sparse(2, 2) * sparse(3, 3);
catch err
    disp(err.message)
end
try
    sparse([1 2], [1 1], [1 1], 1, 1);
catch err
    disp(err.identifier)
end
try
    x = speye(2);
    x(1, 1, 2) = 1;
catch err
    disp(err.identifier)
end
try
    gpuArray(speye(2));
catch err
    disp(err.identifier)
end
try
    sparse(ones(2, 2, 2));
catch err
    disp(err.identifier)
end
