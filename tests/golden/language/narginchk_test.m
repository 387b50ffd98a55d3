f(1);
try
    f();
catch err
    fprintf('%s | %s\n', err.identifier, err.message);
end
try
    f(1, 2, 3);
catch err
    fprintf('%s | %s\n', err.identifier, err.message);
end
try
    g(1, 2, 3);
catch err
    fprintf('%s | %s\n', err.identifier, err.message);
end
try
    [a, b] = g(1);
catch err
    fprintf('%s | %s\n', err.identifier, err.message);
end
try
    v = noout();
catch err
    fprintf('%s | %s\n', err.identifier, err.message);
end
function f(varargin)
    narginchk(1, 2);
    disp('f ok');
end
function y = g(x)
    y = x;
end
function noout()
end
