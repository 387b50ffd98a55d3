% min/max/sort with indices, NaN handling, along dims
% budget: uploads<=4 downloads<=12
% rtol: 0
x = gpuArray(reshape(mod((1:60) * 37, 61), 6, 10));
x(3, 4) = NaN; x(5, 5) = NaN;
[m1, i1] = max(x);
[m2, i2] = min(x, [], 2);
[s, k] = sort(x, 2, 'descend');
[mm, ii] = max(x, [], 'all');
c = cummax(x, 1);
fprintf('%g ', gather(m1), gather(i1)); fprintf('\n');
fprintf('%g ', gather(m2), gather(i2)); fprintf('\n');
fprintf('%g ', gather(s(2, :)), gather(k(2, :))); fprintf('\n');
fprintf('%g %g\n', gather(mm), gather(ii));
fprintf('%g ', gather(c(end, :))); fprintf('\n');
