% Reductions with dim, vecdim, 'all', outtypes and nanflags on a gpuArray.
% budget: uploads<=4 downloads<=12
% rtol: 1e-9
A = gpuArray(reshape(mod(1:2*3*4*5, 7) - 3, 2, 3, 4, 5));
r1 = sum(A, 'all');
r2 = sum(A, [1 3]);
r3 = max(A, [], 'all');
r4 = min(A, [], [2 4]);
r5 = prod(A(:, :, 1, 1), 2);
r6 = mean(A, [1 2 3]);
r7 = sum(single(A), 'all', 'double');
B = A; B(1, 2, 3, 4) = NaN;
r8 = sum(B, 'all', 'omitnan');
r9 = mean(B, 4, 'omitnan');
fprintf('%g %g %g\n', gather(r1), gather(r3), gather(r8));
fprintf('%g ', gather(r2(:)), gather(r4(:)), gather(r5(:)), gather(r6(:)));
fprintf('\n%s %g\n', class(gather(r7)), gather(r7));
fprintf('%.10g\n', gather(sum(r9(:))));
