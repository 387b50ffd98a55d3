x = 5
y = 2;
3 + 4
z = x * 2;
z
ans
