% Recursive calls: fib_rec(22) (call overhead).
fprintf('%d\n', fib_rec(22));
