% Recursive calls: fib(20) through a local function.
r = fib(20);
fprintf('%d\n', r);

function r = fib(n)
    if n < 2
        r = n;
    else
        r = fib(n - 1) + fib(n - 2);
    end
end
