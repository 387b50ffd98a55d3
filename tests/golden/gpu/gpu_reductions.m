% reductions and scans on gpuArrays
G = gpuArray([1 2 3; 4 5 6]);
s = sum(G);
fprintf('%s\n', class(s));
disp(gather(s))
disp(gather(sum(G, 2)))
disp(gather(sum(G, 'all')))
disp(gather(mean(G)))
disp(gather(max(G)))
disp(gather(min(G, [], 2)))
disp(gather(prod(G)))
disp(gather(cumsum(G, 2)))
n = gpuArray([1 NaN 3]);
fprintf('%g %g %g\n', gather(sum(n)), gather(max(n)), gather(sum(n, 'omitnan')));
fprintf('%d %d\n', gather(any(G(:) > 5)), gather(all(G(:) > 0)));
[m, i] = max(gpuArray([3 9 2 9]));
fprintf('%g %g %s\n', gather(m), gather(i), class(i));
e = sum(gpuArray(zeros(0, 3)));
disp(size(e))
v = var(gpuArray([1 2 3 4]));
fprintf('%.4f\n', gather(v));
if sum(G(:)) > 20
    disp('sum is large')
end
fprintf('total %g\n', sum(G(:)));
