x = pi
format long
x
format short
x
format long
y = 1/3
format
y
