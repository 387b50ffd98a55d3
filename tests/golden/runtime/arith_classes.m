% class rules of arithmetic: integer saturation and rounding, mixed classes
a = int8([100 -100 50]) + 100;
fprintf('%s %d %d %d\n', class(a), a);
b = int32(7) / int32(2);
fprintf('%s %d\n', class(b), b);
c = uint8(5) - 10;
fprintf('%d\n', c);
d = int16([1 -1 0]) / 0;
fprintf('%d %d %d\n', d);
e = single(1.5) + 2;
fprintf('%s %g\n', class(e), e);
f = 'a' + 1;
fprintf('%s %d\n', class(f), f);
g = true + true;
fprintf('%s %d\n', class(g), g);
h = 'ab' + 'cd';
fprintf('%d %d\n', h);
k = int64(9007199254740993) + int64(2);
fprintf('%d\n', k);
m = intmax('int64') + 1 == intmax('int64');
fprintf('%d\n', m);
try
    x = int8(1) + int16(1);
catch err
    fprintf('%s\n%s\n', err.identifier, err.message);
end
try
    y = [1 2 3] + [1 2];
catch err
    fprintf('%s\n%s\n', err.identifier, err.message);
end
z = (-8)^(1/3);
fprintf('%.4f %.4f\n', real(z), imag(z));
w = [1 2 3] + [10; 20];
fprintf('%d ', w); fprintf('\n');
p = -int8(-128);
fprintf('%d\n', p);
