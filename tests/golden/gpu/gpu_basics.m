% gpuArray creation, class queries and gather
A = [1 2 3; 4 5 6];
G = gpuArray(A);
disp(class(G))
disp(classUnderlying(G))
disp(underlyingType(G))
fprintf('%d %d %d\n', isUnderlyingType(G, 'double'), isUnderlyingType(G, 'float'), isUnderlyingType(G, 'integer'));
fprintf('%d %d\n', isgpuarray(G), isgpuarray(A));
sz = size(G);
fprintf('size %d x %d, numel %d, class of size: %s\n', sz(1), sz(2), numel(G), class(sz));
fprintf('isgpuarray(size(G)) = %d\n', isgpuarray(size(G)));
B = gather(G);
fprintf('%s %d\n', class(B), isequal(A, B));
S = gpuArray(single([1.5 2.5]));
fprintf('%s %s\n', class(S), classUnderlying(S));
L = gpuArray(true(2, 2));
fprintf('%s %s\n', class(L), classUnderlying(L));
I = gpuArray(int32([7 8 9]));
fprintf('%s %s\n', class(I), classUnderlying(I));
x = gather(5);
fprintf('%s %g\n', class(x), x);
[p, q] = gather(G, 3);
fprintf('%s %s %g\n', class(p), class(q), q);
fprintf('existsOnGPU: %d\n', existsOnGPU(G));
fprintf('empty: %d %d %d\n', isempty(gpuArray([])), size(gpuArray(zeros(0, 3)), 1), size(gpuArray(zeros(0, 3)), 2));
C = gpuArray(G);
fprintf('%s\n', class(C));
