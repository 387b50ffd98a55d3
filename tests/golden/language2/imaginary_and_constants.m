% i and j are functions a variable may shadow.
x = i
y = 3 + 2*j
w = 2*pi*i;
disp(imag(w))
for i = 1:2
  disp(i)
end
disp(i)
clear i
disp(i)
e = eps;
disp(e == 2^-52)
disp([Inf -Inf])
disp(isnan(NaN))
