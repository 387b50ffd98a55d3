% matrix multiply, solves and powers
A = [2 1; 1 3];
B = A * [1; 2];
fprintf('%g %g\n', B);
x = A \ [3; 5];
fprintf('%.4f %.4f\n', x);
y = [3 5] / A;
fprintf('%.4f %.4f\n', y);
P = A^2;
fprintf('%g ', P); fprintf('\n');
Q = A^-1;
fprintf('%.4f ', Q); fprintf('\n');
t = [1 0; 0 1; 1 1] \ [1; 2; 3];
fprintf('%.4f %.4f\n', t);
try
    C = [1 2 3] * [4 5 6];
catch err
    fprintf('%s\n%s\n', err.identifier, err.message);
end
v = [1 2 3] * [4; 5; 6];
fprintf('%d\n', v);
r = [1 2 3]';
fprintf('%d %d\n', size(r));
