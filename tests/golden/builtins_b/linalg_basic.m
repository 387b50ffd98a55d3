% Inverse, determinant, factorizations and the positive-definite error.
A = [4 1; 2 3];
fprintf('%.4f %.4f\n', inv(A)');
fprintf('%g %g %g\n', det(A), trace(A), rank(ones(3)));
[L, U, P] = lu([1 2; 3 4]);
fprintf('%g %g\n', L');
fprintf('%g %g\n', U');
fprintf('%g %g\n', P');
R = chol([4 2; 2 3]);
fprintf('%.4f %.4f\n', R');
try
    chol([1 2; 2 1]);
catch err
    fprintf('%s\n%s\n', err.identifier, err.message);
end
[R, p] = chol([1 2; 2 1]);
fprintf('%g %g\n', R, p);
e = eig([2 1; 1 2]);
fprintf('%g\n', e);
s = svd([3 0; 0 4]);
fprintf('%g\n', s);
[Q, R] = qr([1 2; 3 4; 5 6], 0);
fprintf('%d %d %d %d\n', size(Q), size(R));
fprintf('%.4f\n', norm(Q * R - [1 2; 3 4; 5 6]) < 1e-12);
x = linsolve([2 0; 0 4], [2; 4]);
fprintf('%g\n', x);
fprintf('%g %g\n', expm(zeros(2)));
fprintf('%g %g\n', pinv([1 1; 1 1]));
n = null([1 1; 1 1]);
fprintf('%d %d\n', size(n));
