% Solvers, quadrature, ODEs and interpolation of issue 19 (results rounded
% or compared with tolerances where MATLAB's iterations may differ).
p(fzero(@(x) x^2 - 2, 1), 8)
p(fzero(@cos, [1 2]), 8)
[x, fv, flag] = fzero(@(x) x - 1, [0 3]); p([x fv flag])
opts = optimset('TolX', 1e-12);
p(fzero(@(x) exp(x) - 2, 0, opts), 10)
x = fminsearch(@(x) (x(1)-1)^2 + (x(2)+2)^2, [0 0]); p(round(x * 1e2) / 1e2)
[x, fv] = fminbnd(@(x) (x-2)^2 + 1, 0, 5); p(round([x fv] * 1e6) / 1e6)
p(integral(@(x) x.^2, 0, 1), 10)
p(integral(@(x) exp(-x.^2), -Inf, Inf), 10)
p(integral(@(x) [x; 2*x], 0, 1, 'ArrayValued', true), 10)
p(integral(@(x) 1./x, 1, 2, 'RelTol', 1e-12), 12)
p(integral2(@(x, y) x.*y, 0, 1, 0, 2), 10)
p(integral2(@(x, y) ones(size(x)), 0, 1, 0, @(x) x), 10)
[t, y] = ode45(@(t, y) -y, [0 1], 1); p(abs(y(end) - exp(-1)) < 1e-4)
[t, y] = ode23(@(t, y) -2*y, [0 0.5 1], 1); p(size(y)); p(abs(y(end) - exp(-2)) < 1e-3)
sol = ode45(@(t, y) [y(2); -y(1)], [0 pi], [0; 1]);
p(isstruct(sol)); p(sol.solver); p(abs(sol.y(:, end) - [0; -1]) < 1e-3)
[t, y] = ode45(@(t, y) -y, [0 1], 1); p(numel(t) >= 41); p(max(diff(t)) <= 0.1 / 4 + 1e-12)
opts = odeset('RelTol', 1e-8, 'AbsTol', 1e-10);
[t, y] = ode45(@(t, y) y, [0 1], 1, opts); p(abs(y(end) - exp(1)) < 1e-6)
[X, Y] = meshgrid(1:3, 1:2); V = X + 10*Y;
p(interp2(X, Y, V, 1.5, 1.5))
p(interp2(V, 2.5, 1.5))
p(interp2(X, Y, V, [1 2.5], [2 1], 'nearest'))
p(interp2(X, Y, V, 4, 1))
p(interp2(X, Y, V, 4, 1, 'linear', 0))
p(interp2(V, 1))
F = griddedInterpolant([1 2 3], [10 20 40]);
p(F(2.5)); p(F([1.5 3]))
F.Method = 'nearest'; p(F(2.4))
G = griddedInterpolant({1:3, 1:2}, [1 2; 3 4; 5 6]);
p(G(2.5, 1.5))
F2 = griddedInterpolant([1 2 3], [10 20 40], 'linear', 'nearest'); p(F2(5))
p(nanmean([1 NaN 3])); p(nansum([1 NaN 3])); p(nanmax([1 NaN 3])); p(nanmin([1 NaN 3]))
p(nanmedian([1 NaN 3 4])); p(nanstd([1 NaN 3])); p(nanvar([1 NaN 3]))
p(nanmean([1 NaN; 3 4])); p(nanmean([1 NaN; 3 4], 2))

function p(x, digits)
% one value per line: text as is, numbers through mat2str
if nargin < 2
    digits = 6;
end
if ischar(x)
    disp(x)
else
    disp(mat2str(x, digits))
end
end
