try
    error('Simple message');
catch err
    fprintf('%d [%s]\n', isempty(err.identifier), err.message);
end
try
    error('my:id', 'Value %d is bad: %s', 7, 'really');
catch err
    fprintf('[%s] [%s]\n', err.identifier, err.message);
end
try
    x = [1 2 3];
    y = x(5);
catch err
    fprintf('[%s]\n', err.identifier);
end
try
    undefined_function_xyz(1);
catch err
    fprintf('[%s] [%s]\n', err.identifier, err.message);
end
try
    error('outer:id', 'outer');
catch
    disp('caught without variable');
end
try
    try
        error('inner:id', 'inner problem');
    catch e1
        rethrow(e1);
    end
catch e2
    fprintf('%s\n', e2.identifier);
end
ME = MException('a:b', 'made %d', 3);
try
    throw(ME);
catch e3
    fprintf('%s %s %s\n', e3.identifier, e3.message, class(e3));
end
fprintf('%s\n', lasterr);
s.message = 'from struct';
s.identifier = 'st:id';
try
    error(s);
catch e4
    fprintf('%s %s\n', e4.identifier, e4.message);
end
