% griddedInterpolant: 1-D, 2-D (NDGRID layout), methods, extrapolation, properties
x = 1:5;
v = x.^2;
F = griddedInterpolant(x, v)
disp(F(2.5))
disp(F([1.5 6]))
G = griddedInterpolant(x, v, 'spline');
disp(abs(G([2.5 3.5]) - interp1(x, v, [2.5 3.5], 'spline')) < 1e-12)
[X, Y] = ndgrid(1:4, 1:3);
V = X.^2 + 10*Y;
H = griddedInterpolant(X, Y, V);
disp(H(2.5, 1.5))
disp(H([2.5 1.5; 3 2]))
disp(H({[1.5 2.5], [1 2 3]}))
H.Method = 'cubic';
disp(H(2.5, 1.5))
K = griddedInterpolant({1:4, 1:3}, V, 'linear', 'none');
disp(isnan(K(5, 1)))
disp(K.Method)
disp(K.ExtrapolationMethod)
P = griddedInterpolant(x, v, 'previous');
disp(P([1.5 4.9 5]))
N = griddedInterpolant(x, v, 'nearest');
disp(N([1.5 2.4 4.6]))
disp(interpn(X, Y, V, 2.5, 1.5))
disp(interp2(1:3, 1:4, V, 1.5, 2.5))
