% Growing a matrix one row at a time: M(end+1, :) = [a b c].
M = zeros(0, 3);
for k = 1:25000
    M(end+1, :) = [k, 2 * k, mod(k, 5)];
end
fprintf('%d %d %d\n', size(M, 1), sum(M(:, 2)), sum(M(:, 3)));
