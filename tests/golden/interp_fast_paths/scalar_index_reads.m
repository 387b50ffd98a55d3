% x(k) and x(i, j) reads of one element: classes, column-major order,
% and the errors of bad subscripts.
m = [1 2 3; 4 5 6];
fprintf('%g ', m(1), m(2), m(3), m(6), m(2, 1), m(1, 3), m(2, 3)); fprintf('\n');
b = m > 2;
x = b(4);
fprintf('%s %d %s %d\n', class(x), x, class(b(2, 2)), b(2, 2));
c = [7; 8; 9];
fprintf('%g %g\n', c(3), c(2, 1));
s = single([1.5 2.5]);
fprintf('%s %g\n', class(s(2)), s(2));
n = int16([4 5 6]);
fprintf('%s %d\n', class(n(3)), n(3));
t = 'hello';
fprintf('%s %s\n', class(t(2)), t(2));
z = [1+2i 3];
fprintf('%g %g\n', real(z(1)), imag(z(1)));
a = reshape(1:8, 2, 2, 2);
fprintf('%g %g\n', a(7), a(2, 3));
e = [5 6];
bad = {0, 3, 1.5, NaN, -1, Inf};
for k = 1:numel(bad)
    try
        q = e(bad{k});
        fprintf('ok %g\n', q);
    catch err
        fprintf('%s\n', err.identifier);
    end
end
try
    q = m(3, 1);
catch err
    fprintf('%s\n', err.identifier);
end
try
    q = m(1, 4);
catch err
    fprintf('%s\n', err.identifier);
end
try
    q = m(1.5, 1);
catch err
    fprintf('%s\n', err.identifier);
end
f = @(k) k * 10;
fprintf('%g\n', f(3));
w = m;
y = w(5);
w(5) = 100;
fprintf('%g %g %g\n', y, m(5), w(5));
