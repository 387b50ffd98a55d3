% i, j, pi, eps, Inf and NaN are functions: a variable of the same name
% shadows them until it is cleared; their documented call forms.
z = 3 + 4*i;
disp(abs(z))
i = 10;
disp(i + 1)
clear i
disp(imag(i))
j = 'jay';
disp(j)
clear j
disp(imag(2*j))
pi = 3;
disp(pi)
clear pi
fprintf('%.6f\n', pi)
eps = 0.5;
disp(eps)
clear eps
disp(eps == 2^-52)
disp(eps(1) == eps)
disp(eps(2) == 2^-51)
disp(eps('single') == single(2^-23))
disp(class(eps('single')))
disp(eps(single(1)) == eps('single'))
disp(eps(0) == 2^-1074)
disp(eps([1 2 4]) == [2^-52 2^-51 2^-50])
disp(isnan(eps(NaN)))
disp(eps(Inf))
Inf = -1;
disp(Inf)
clear Inf
disp(Inf(2))
disp(size(Inf(2, 3)))
disp(class(Inf(1, 2, 'single')))
disp(size(Inf([3 1])))
disp(-Inf)
disp(class(Inf('like', single(1))))
NaN = 4;
disp(NaN)
clear NaN
disp(NaN(1, 3))
disp(class(NaN(2, 'single')))
disp(isnan(NaN(2)))
disp(NaN == NaN)
disp(size(NaN(0, 3)))
y = [1 NaN Inf -Inf]
