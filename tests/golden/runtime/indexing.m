% indexing reads, growth, deletion and their errors
x = 10:10:50;
fprintf('%d ', x([1 end])); fprintf('\n');
fprintf('%d ', x(x > 25)); fprintf('\n');
A = magic(4);
fprintf('%d ', A(2, :)); fprintf('\n');
fprintf('%d ', A(end, end)); fprintf('\n');
fprintf('%d ', size(A(:))); fprintf('\n');
fprintf('%d ', size(x([1 2]'))); fprintf('\n');
fprintf('%d ', size(A([1 2]'))); fprintf('\n');
y = [];
y(3) = 7;
fprintf('%d ', y); fprintf('\n');
M = zeros(2);
M(3, 4) = 1;
fprintf('%d ', size(M)); fprintf('\n');
x(2) = [];
fprintf('%d ', x); fprintf('\n');
A(:, [1 3]) = [];
fprintf('%d ', size(A)); fprintf('\n');
s = 'abc';
s(5) = 'e';
fprintf('%d ', double(s)); fprintf('\n');
q = int8([1 2 3]);
q(2) = 300;
fprintf('%s %d\n', class(q), q(2));
z = [1 2];
z(2) = 1i;
fprintf('%d\n', isreal(z));
try
    x(10)
catch err
    fprintf('%s\n%s\n', err.identifier, err.message);
end
try
    A(1, 7)
catch err
    fprintf('%s\n', err.message);
end
try
    x(1.5)
catch err
    fprintf('%s\n', err.message);
end
try
    x(0)
catch err
    fprintf('%s\n', err.message);
end
try
    x([1 2]) = [1 2 3];
catch err
    fprintf('%s\n', err.message);
end
try
    M(1, 1:2) = [1 2 3];
catch err
    fprintf('%s\n', err.message);
end
