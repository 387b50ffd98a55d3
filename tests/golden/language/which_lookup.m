x = 1;
which x
which sin
which nosuchthing
p = which('sin');
disp(p)
q = which('x');
disp(q)
