% Column and row slices of a matrix in a loop.
A = reshape(1:400, 20, 20);
t = 0;
for k = 1:100000
    col = A(:, mod(k, 20) + 1);
    row = A(mod(k, 7) + 1, :);
    t = t + col(3) + row(5);
end
fprintf('%d\n', t);
