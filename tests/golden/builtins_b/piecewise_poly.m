% Piecewise polynomials (mkpp, ppval, unmkpp) and interp1's 'pp' form.
pp = mkpp([0 1 2], [1 0; 2 1]);
fprintf('%s %d %d %d\n', pp.form, pp.pieces, pp.order, pp.dim);
fprintf('%g ', ppval(pp, [-1 0 0.5 1 1.5 3])); fprintf('\n');
[b, c, l, k, d] = unmkpp(pp);
fprintf('%g ', b); fprintf('| %g %g %g | %d %d %d\n', c(1,:), c(2,1), l, k, d);
lin = interp1([1 2 4], [10 20 0], 'linear', 'pp');
fprintf('%g ', lin.breaks); fprintf('\n');
fprintf('%g ', lin.coefs.'); fprintf('\n');
fprintf('%g ', ppval(lin, [0 1.5 3 5])); fprintf('\n');
near = interp1([1 2 4], [10 20 0], 'nearest', 'pp');
fprintf('%g ', near.breaks); fprintf('\n');
fprintf('%g ', ppval(near, [1 1.4 1.5 3 5])); fprintf('\n');
s = interp1(0:3, [0 1 8 27], 'spline', 'pp');
fprintf('%d %d %.4f\n', s.pieces, s.order, ppval(s, 2.5));
fprintf('%g ', interp1(1:5, 3:2:11, [0 6], 'previous', 'extrap')); fprintf('\n');
fprintf('%g ', interp1(1:5, 3:2:11, [0 6], 'next', 'extrap')); fprintf('\n');
