% Sparse matrices round-trip through MAT-files (v7 and v7.3).
S = sparse([1 3], [2 2], [4 -1], 3, 3);
L = sparse([true false; false true]);
C = sparse([1i 0; 0 2]);
c = {S};
f = [tempname '.mat'];
save(f, 'S', 'L', 'C', 'c');
clear S L C c
load(f);
disp([issparse(S) issparse(L) issparse(C) issparse(c{1})])
disp(class(L))
S
delete(f);
g = [tempname '.mat'];
save(g, 'S', 'L', 'C', '-v7.3');
clear S L C
load(g);
disp([issparse(S) issparse(L) issparse(C)])
C
delete(g);
