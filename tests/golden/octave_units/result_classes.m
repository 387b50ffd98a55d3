% Result classes and exact values: single in, single out (cov, corrcoef,
% dot, kurtosis, skewness computed in single); dot of x with itself is
% real; accumarray's result has the class FUN returns; strcmp of empty
% texts compares their sizes; cellfun's legacy 'isreal' is false for cells.
fprintf('%s %s\n', class(cov(single(5))), class(corrcoef(single([1 2 4]), [2 1 5])));
x = [1+1i, 3-1i; 1-1i, 3-1i];
d = dot(x, x);
fprintf('%d %s %s\n', isreal(d), mat2str(d), class(dot(single(x), x)));
fprintf('%.7f %.7f\n', kurtosis(single([1:5 10])), skewness(single([1:5 10])));
fprintf('%d\n', kurtosis(single([1:5 10])) == single(2.9786513));
a = accumarray([1 1; 2 1; 2 3; 2 1; 2 3], 101:105, [2 4], @(v) numel(v) > 1);
fprintf('%s %s\n', class(a), mat2str(a));
n = accumarray([1; 2; 1], int8([100; 2; 100]), [], @(v) sum(v, 'native'));
fprintf('%s %s\n', class(n), mat2str(n));
e = char(zeros(0, 2));
fprintf('%d %d %d %d\n', strcmp('', e), strcmp(e, ''), strcmp({'foo'}, e), strcmp('', ''));
fprintf('%s\n', mat2str(cellfun('isreal', {true, 0.1, {}, 2i, [], 'abc'})));
r = regexp('Strings', {'t', 's'});
fprintf('%s %d %d: %d %d\n', class(r), size(r), r{:});
p = polyfit([-2 -1 0 1 2], [-2 -1 0 1 2].^2 + 2*[-2 -1 0 1 2] + 3, 3);
fprintf('%d\n', max(abs(p - [0 1 2 3])) < 10*eps);
fprintf('%d\n', max(max(abs(sqrtm(2*ones(2)) - ones(2)))) <= 3*eps);
s = cell2struct({1 2; 3 4}, {'a', 'b'}, 2);
fprintf('%d %d %d %d\n', size(s), s(2).a, s(2).b);
