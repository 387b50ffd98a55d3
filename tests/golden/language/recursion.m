fprintf('%d\n', fact(10));
fprintf('%d\n', fib(15));
function r = fact(n)
    if n <= 1
        r = 1;
    else
        r = n * fact(n - 1);
    end
end
function r = fib(n)
    if n < 2
        r = n;
    else
        r = fib(n - 1) + fib(n - 2);
    end
end
