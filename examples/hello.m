% hello.m - a small tour of matfuse: run with `matfuse examples/hello.m`
fprintf('Hello from matfuse!\n');

% Arrays and elementwise math
x = linspace(0, 1, 5);
y = x.^2 + 1;
fprintf('y = %s\n', mat2str(y));

% Control flow and a local function
total = 0;
for k = 1:10
    if mod(k, 2) == 0
        total = total + square(k);
    end
end
fprintf('sum of even squares up to 10: %d\n', total);

% Structs, cells and anonymous functions
person = struct('name', 'Ada', 'age', 36);
greet = @(p) sprintf('%s is %d years old', p.name, p.age);
disp(greet(person));
words = {'fuse', 'all', 'the', 'things'};
fprintf('%s ', words{:}); fprintf('\n');

% Errors are MATLAB errors
try
    error('hello:demo', 'Caught an error with value %d', 42);
catch err
    fprintf('%s (%s)\n', err.message, err.identifier);
end

function y = square(x)
    y = x * x;
end
