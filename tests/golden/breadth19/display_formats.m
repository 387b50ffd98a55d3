% Display: exact zeros print as 0 among non-integers, format compact/loose,
% display(x) with the argument's name.
a = [0 0.25; -1.5 0]
format compact
b = [1.5 0]
c = {1, 'x'}
s.f = 0.5
format loose
d = [0 1e-3]
y = 3;
display(y)
m = int8([0 -5])
l = [true false]
n = [0 NaN 2.5]
