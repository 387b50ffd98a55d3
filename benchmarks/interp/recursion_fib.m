% Recursive calls: fib_rec(24) (call overhead).
fprintf('%d\n', fib_rec(24));
