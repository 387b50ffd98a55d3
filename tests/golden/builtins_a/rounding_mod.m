% Rounding, mod/rem sign rules and integer division.
fprintf('%g %g %g %g\n', round(2.5), round(-2.5), round(0.4), round(-0.6));
fprintf('%g %g %g %g\n', floor(-2.5), ceil(-2.5), fix(-2.5), fix(2.5));
fprintf('%.2f %g\n', round(pi, 2), round(1234, -2));
fprintf('%g\n', round(123456, 2, 'significant'));
fprintf('%g %g\n', mod(-1, 3), rem(-1, 3));
fprintf('%g %g\n', mod(5, -3), rem(5, -3));
fprintf('%g %g\n', mod(7, 0), mod(0, 5));
fprintf('%g\n', rem(7, 0));
fprintf('%g ', mod(-3:3, 3)); fprintf('\n');
fprintf('%g ', rem([-5 -4 4 5], 3)); fprintf('\n');
fprintf('%g\n', mod(5.5, 1.1));
m = mod(int8(-7), int8(3));
fprintf('%s %d\n', class(m), m);
r = rem(int16(-7), 3);
fprintf('%s %d\n', class(r), r);
fprintf('%d ', idivide(int32([7 -7]), int32(2))); fprintf('\n');
fprintf('%d ', idivide(int32([7 -7]), int32(2), 'floor')); fprintf('\n');
fprintf('%d ', idivide(int32([7 -7]), int32(2), 'round')); fprintf('\n');
fprintf('%d ', idivide(int32([7 -7]), int32(2), 'ceil')); fprintf('\n');
total = 0;
for k = 1:20
    if mod(k, 7) == 0
        total = total + k;
    end
end
fprintf('%d\n', total);
