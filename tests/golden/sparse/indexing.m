% Indexing stays sparse; assignment grows; deletion of rows and columns.
S = sparse([1 2 3], [1 2 3], [10 20 30]);
a = S(2, 2)
b = S(:, 2)
c = S(2:3, :)
d = S(end)
issparse(a)
S(4, 5) = 7
S(1, :) = []
S(:, [1 5]) = []
v = S(:)'
x = sparse([0 4 0 5]);
x(2) = 0
[r, c] = find(sparse([0 3; 4 0]))
[i, j, v] = find(sparse([0 3; 4 0]))
k = find(sparse([0 1 0 2]))
M = zeros(2);
M(1, :) = sparse([1 2]);
issparse(M)
M
