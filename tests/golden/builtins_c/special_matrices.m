% Special matrices and structure predicates (MATLAB's documented definitions).
fprintf('%g ', toeplitz([1 2 3], [1 4 5])); fprintf('\n');
fprintf('%g ', hankel([1 2 3])); fprintf('\n');
fprintf('%g ', hankel([1 2 3], [3 4 5])); fprintf('\n');
fprintf('%g ', vander([2 3 4])); fprintf('\n');
fprintf('%g ', pascal(3)); fprintf('\n');
fprintf('%g ', pascal(3, 1)); fprintf('\n');
fprintf('%g ', invhilb(3)); fprintf('\n');
fprintf('%.4f ', hilb(2)); fprintf('\n');
fprintf('%g ', wilkinson(3)); fprintf('\n');
fprintf('%g ', compan([1 -6 11 -6])); fprintf('\n');
h = hadamard(8); fprintf('%d\n', isequal(h*h', 8*eye(8)));
h = hadamard(12); fprintf('%d\n', isequal(h*h', 12*eye(12)));
fprintf('%g\n', sum(eig(rosser())));
fprintf('%s\n', class(hilb(3, 'single')));
fprintf('%d %d %d\n', istril([1 0; 2 3]), istriu([1 0; 2 3]), isdiag(eye(3)));
fprintf('%d %d\n', issymmetric([1 2; 2 1]), issymmetric([0 1; -1 0], 'skew'));
fprintf('%d %d\n', ishermitian([1 1i; -1i 2]), issymmetric([1 1i; -1i 2]));
fprintf('%d\n', isbanded([1 2 0; 3 4 5; 0 6 7], 1, 1));
