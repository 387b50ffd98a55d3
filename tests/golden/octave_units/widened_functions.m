% Behaviour the widened Octave corpus pinned down (MATLAB's documented forms):
% spline's piecewise polynomial (clamped end slopes, two and three sites,
% vector-valued data, NaN values left out), convn's shapes and class,
% fullfile with a cell array, xor of complex operands, cast 'like' a
% complex prototype, optimset(old, new), odeset's case-insensitive names.
pp = spline([0 1 2], [0 0 1 0 0]);
[b, c, l, k, d] = unmkpp(pp);
fprintf('%s | %s | %d %d %d\n', mat2str(b), mat2str(c), l, k, d);
pp = spline([1 2], [1 2 3 4]);
[~, c] = unmkpp(pp);
fprintf('%s\n', mat2str(c));
[~, c, l, k] = unmkpp(spline([0 1 3], [1 2 5]));
fprintf('%s %d %d\n', mat2str(c, 6), l, k);
x = 0:5;
v = spline(x, [sin(x); cos(x)], [0.5 2.5]);
fprintf('%s %s\n', mat2str(size(v)), mat2str(v, 4));
y = sin(x); y(3) = NaN;
fprintf('%s\n', mat2str(spline(x, y, [0 1 3]), 4));
a = reshape(1:8, 2, 2, 2);
fprintf('%s %s\n', mat2str(size(convn(a, ones(2, 2, 2)))), mat2str(convn(a, ones(2, 2, 2), 'valid')));
fprintf('%s %s\n', mat2str(size(convn(a, [1 1], 'same'))), class(convn(rand(3), single(1))));
f = fullfile('data', {'a.txt', 'b.txt'});
fprintf('%s %s %s\n', class(f), f{:});
fprintf('%s %s\n', filesep, mat2str(xor([1i 0 2], [1 1 0])));
z = cast(1, 'like', 2i);
fprintf('%d %s\n', isreal(z), class(cast(int8(3), 'like', single(1i))));
old = optimset('TolX', 1e-2);
new = optimset('TolFun', 1e-3);
joint = optimset(old, new);
fprintf('%g %g\n', joint.TolX, joint.TolFun);
o = odeset('reltol', 1e-4, 'ABSTOL', 1e-6);
fprintf('%g %g %d\n', o.RelTol, o.AbsTol, isempty(o.MaxStep));
try
    odeset('NewtonTol', 3);
catch err
    fprintf('unrecognized option rejected\n');
end
