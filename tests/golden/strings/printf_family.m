% sprintf/fprintf: recycling, conversions, escapes.
fprintf('%d\n', [1 2 3]);
fprintf('%d %d\n', [1 2; 3 4]);
fprintf('%5.2f|%-6d|%+d\n', pi, 42, 5);
fprintf('%s=%d\n', 'x', 4);
fprintf('%d\n', 1.5);
fprintf('%x %o %c %e\n', 255, 8, 65, 12345.678);
fprintf('%g %g\n', 1e-5, 100000);
fprintf('[%s]\n', sprintf('%d,', 1:4));
fprintf('tab:\there\\ 100%%\n');
fprintf('%d %f\n', Inf, NaN);
s = sprintf('%03d', 7)
n = fprintf('abc\n')
fprintf(1, 'to stdout %d\n', 1);
fprintf('no newline');
fprintf('\n');
