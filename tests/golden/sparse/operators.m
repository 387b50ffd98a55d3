% Result storage: sparse op sparse is sparse; S+F and S*F are full;
% S.*F, S&F, comparisons and scalar products stay sparse.
S = sparse([1 0; 0 2]);
F = [1 2; 3 4];
issparse(S + S)
issparse(S + F)
issparse(S + 1)
issparse(S .* F)
issparse(S * 3)
issparse(S * F)
issparse(S * S)
issparse(S > 0)
issparse(S & F)
issparse(S ./ 2)
P = S .* F
Q = S + F
R = S * F
G = S > 1
N = -S
K = ~S
T = sparse([1 2; 0 3])'
C = sparse([1i 0; 0 2i])'
x = sparse([4 1; 1 3]) \ [1; 2]
y = sparse([4 1; 1 3]) \ sparse([1; 2])
M = sparse([1 1; 0 1])^3
H = [S, F]
V = [S; sparse([0 9])]
if sparse(1), disp('true scalar'), end
