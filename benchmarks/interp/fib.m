% Recursive calls: fib_rec(24) (fib_rec.m is a function file next to this script).
r = fib_rec(24);
fprintf('%d\n', r);
