% accumarray, perms, nextpow2, realpow/reallog.
a = accumarray([1; 2; 1; 4], [10; 20; 30; 40]);
fprintf('%g ', a); fprintf('\n');
b = accumarray([1 1; 2 2; 1 1], [1 2 3]);
fprintf('%d %d\n', size(b, 1), size(b, 2)); fprintf('%g ', b); fprintf('\n');
c = accumarray([1; 2; 1], [5; 6; 7], [], @max);
fprintf('%g ', c); fprintf('\n');
d = accumarray([1; 3], [5; 6], [4 1], @prod, NaN);
fprintf('%g ', d); fprintf('\n');
e = accumarray([1; 2; 1], [5; 6; 7], [], @(x) {sort(x)});
fprintf('%s %g %g\n', class(e), e{1});
f = accumarray([2; 2; 3], 1);
fprintf('%g ', f); fprintf('\n');
g = accumarray([1; 2; 1], [5; 6; 7], [], @(x) numel(x));
fprintf('%g ', g); fprintf('\n');
fprintf('%g ', perms([1 2 3])); fprintf('\n');
fprintf('%d %d\n', size(perms(1:4), 1), size(perms(1:4), 2));
fprintf('%g ', nextpow2([1 2 3 1024 1025 0.3])); fprintf('\n');
fprintf('%g ', realpow(2, [1 2 3])); fprintf('\n');
fprintf('%g\n', reallog(exp(2)));
words = {'b', 'a', 'c', 'a'};
[u, ~, idx] = unique(words);
counts = accumarray(idx, 1);
for k = 1:numel(u)
    fprintf('%s=%d ', u{k}, counts(k));
end
fprintf('\n');
