% Distribution shape, NaN-ignoring statistics, numbers and bits.
x = [2 8 0 4 1 9 9 0];
fprintf('%.4f\n', skewness(x));
fprintf('%.4f\n', skewness(x, 0));
fprintf('%.4f\n', kurtosis(x));
fprintf('%.4f\n', kurtosis(x, 0));
fprintf('%g\n', iqr([1 2 3 4 5 6 7 8]));
fprintf('%g ', iqr([1 2; 3 4; 5 6; 7 8])); fprintf('\n');
fprintf('%g\n', iqr([1 2 -Inf], 2));
fprintf('%g %g %g\n', nanmean([1 NaN 3]), nansum([1 NaN 3]), nanmax([1 NaN 3]));
fprintf('%g %g\n', nanmin([4 NaN 3]), nanmedian([1 NaN 3 10]));
fprintf('%g\n', sum(int8([100 100])));
fprintf('%s\n', class(sum(int8([100 100]))));
fprintf('%s %d\n', class(sum(int8([100 100]), 'native')), sum(int8([100 100]), 'native'));
fprintf('%s\n', class(prod(uint8([20 20]))));
fprintf('%g ', factor(360)); fprintf('\n');
[p, k] = factor(360); fprintf('%g ', p, k); fprintf('\n');
fprintf('%s\n', rat(pi));
fprintf('%s\n', rat(0.75));
[n, d] = rat([0.5 0.75 1/3]); fprintf('%g/%g ', [n; d]); fprintf('\n');
fprintf('%d ', bitget(uint8(13), 1:4)); fprintf('\n');
fprintf('%d\n', bitset(uint8(8), 1));
fprintf('%d\n', bitset(15, 4, 0));
fprintf('%s\n', dec2base(23, 3));
fprintf('%s\n', dec2base(5, 2, 8));
fprintf('%g\n', base2dec('212', 3));
fprintf('%s\n', dec2bin(-3));
fprintf('%s\n', dec2hex(-1));
fprintf('%s\n', dec2bin(5, 8));
m = bsxfun(@plus, [1; 2], [10 20 30]); fprintf('%g ', m); fprintf('\n');
m = bsxfun(@times, [1 2 3], [1; 2]); fprintf('%g ', m); fprintf('\n');
c = mat2cell(reshape(1:12, 3, 4), [1 2], [3 1]);
fprintf('%d %d | %d %d\n', size(c{2,1}), size(c{1,2}));
fprintf('%g ', c{2,1}); fprintf('\n');
fprintf('%s\n', validatestring('app', {'apple', 'banana'}));
try
    validatestring('x', {'apple', 'banana'});
catch err
    fprintf('%s\n', err.identifier);
end
fprintf('%.4f ', sqrtm([4 1; 0 9])); fprintf('\n');
fprintf('%.4f ', logm(expm([1 2; 0 3]))); fprintf('\n');
