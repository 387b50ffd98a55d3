% Root finding, minimisation, quadrature and ODE solvers.
fprintf('%.6f\n', fzero(@cos, [1 2]));
fprintf('%.6f\n', fzero(@(x) x.^3 - 2, 1));
[x, fval, flag] = fzero(@(x) x - 1, [0 3]);
fprintf('%.6f %g %d\n', x, fval, flag);
try
    fzero(@(x) x.^2 + 1, [0 1]);
catch err
    fprintf('%s\n', err.identifier);
end
[x, fval] = fminbnd(@(x) (x - 2).^2 + 1, 0, 5);
fprintf('%.4f %.4f\n', x, fval);
x = fminsearch(@(p) (p(1) - 1).^2 + (p(2) + 2).^2, [0 0]);
fprintf('%.3f %.3f\n', x);
o = optimset('TolX', 1e-10);
fprintf('%.8f\n', fminbnd(@(x) (x - 0.5).^2, 0, 1, o));
fprintf('%.8f\n', integral(@(x) x.^2, 0, 3));
fprintf('%.8f\n', integral(@(x) exp(-x.^2), -Inf, Inf));
fprintf('%.8f ', integral(@(x) [x, 2*x], 0, 1, 'ArrayValued', true)); fprintf('\n');
fprintf('%.6f\n', integral2(@(x, y) x.*y, 0, 1, 0, 2));
fprintf('%.6f\n', integral2(@(x, y) ones(size(x)), 0, 1, 0, @(x) x));
[t, y] = ode45(@(t, y) -2*y, [0 1], 1);
fprintf('%g %d %d\n', t(end), t(1) == 0, abs(y(end) - exp(-2)) < 1e-3);
[t, y] = ode23(@(t, y) [y(2); -y(1)], [0 pi/2 pi], [0; 1]);
fprintf('%d %d\n', size(y));
fprintf('%d\n', all(abs(y(2, :) - [1 0]) < 1e-2));
sol = ode45(@(t, y) y, [0 1], 1);
fprintf('%s %d\n', sol.solver, abs(sol.y(end) - exp(1)) < 1e-2);
