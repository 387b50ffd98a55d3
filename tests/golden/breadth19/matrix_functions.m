% expm, logm and sqrtm: MATLAB's documented examples, warnings and outputs
A = [1 1 0; 0 0 2; 0 0 -1];
Y = expm(A)
P = logm(Y);
disp(round(P, 10))
A = [5 -4 1 0 0; -4 6 -4 1 0; 1 -4 6 -4 1; 0 1 -4 6 -4; 0 0 1 -4 6];
X = round(sqrtm(A))
A = [7 10; 15 22];
Y = sqrtm(A)
disp(norm(Y * Y - A, 1) < 1e-12)
% a real matrix with a negative eigenvalue: a complex principal root
R = sqrtm([-4 0; 0 9]);
disp(isreal(R))
disp(abs(R - [2i 0; 0 3]) < 1e-15)
% exact singularity: a warning, and none with the residual output
lastwarn('');
X = sqrtm([1 2; 0 0]);
[~, id] = lastwarn();
disp(id)
lastwarn('');
[X, residual] = sqrtm([1 2; 0 0]);
[~, id] = lastwarn();
disp(isempty(id))
disp(residual < 1e-12)
% no principal logarithm: a warning and a non-principal (complex) one
L = logm([-1 0; 0 2]);
[~, id] = lastwarn();
disp(id)
disp(isreal(L))
[L, exitflag] = logm([2 1; 1 3]);
disp(exitflag)
disp(issymmetric(L))
disp(class(expm(single([1 2; 3 4]))))
disp(class(sqrtm(single([4 1; 1 3]))))
disp(class(logm(single([4 1; 1 3]))))
disp(size(expm(zeros(0, 0))))
