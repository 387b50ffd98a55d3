% Display: exact zeros in non-integer matrices print as 0, format compact,
% display(x) labels the value with the variable's name.
z = [1 0 2.5]
b = [0 0.5; 1 0]
big = [0 1500.5]
v = [-0 1.25]'
format compact
a = 5
b
format loose
display(a)
x = 7;
display(x)
s = struct([])
format long
w = [0 pi]
format short
