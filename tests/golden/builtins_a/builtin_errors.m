% Error identifiers and messages raised by part-A builtins.
try
    reshape(1:6, 4, 2);
catch err
    fprintf('%s\n%s\n', err.identifier, err.message);
end
try
    sqrt(int8(4));
catch err
    fprintf('%s\n%s\n', err.identifier, err.message);
end
try
    [m, i] = max([1 2], [3 4]);
catch err
    fprintf('%s\n', err.identifier);
end
try
    nchoosek(3, 4);
catch err
    fprintf('%s\n', err.identifier);
end
try
    mod(int8(1), int16(2));
catch err
    fprintf('%s\n', err.message);
end
try
    atan2([1 2], [1 2 3]);
catch err
    fprintf('%s\n%s\n', err.identifier, err.message);
end
try
    zeros(1.5);
catch err
    fprintf('%s\n', err.identifier);
end
