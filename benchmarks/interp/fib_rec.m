function r = fib_rec(n)
% Naive recursive Fibonacci (for the interpreter call-overhead benchmark).
    if n < 2
        r = n;
    else
        r = fib_rec(n - 1) + fib_rec(n - 2);
    end
end
