% str2double of char rows and sum of vectors: plain decimals, edge cases.
texts = {'12', ' -3.5 ', '.5e-3', '+5', '1.', '1e400', '-1E-400', '1,000', '1d3', ...
         '2i', '3-4j', 'abc', '', '  ', '1 2', '0x10', 'Inf', '-inf', 'nan', '1e', '--1', ...
         '007', '1_000', sprintf('\t42\n')};
for k = 1:numel(texts)
    x = str2double(texts{k});
    if isreal(x)
        fprintf('%s %s %.17g\n', ['[' texts{k} ']'], class(x), x);
    else
        fprintf('%s complex %g %g\n', ['[' texts{k} ']'], real(x), imag(x));
    end
end
fprintf('%g\n', str2double(['12'; '34']));
fprintf('%g ', str2double({'1', 'x', '2.5'})); fprintf('\n');
fprintf('%g\n', str2double(7));
% sum of logical and double vectors, rows and columns, with NaN and -0.
b = [true false true true];
fprintf('%s %g %g\n', class(sum(b)), sum(b), sum(b'));
fprintf('%g %g\n', sum(logical([0 0 0])), sum(true));
v = [0.1 0.2 0.3 1e16 -1e16];
fprintf('%.17g %.17g\n', sum(v), sum(v'));
fprintf('%g\n', sum([1 NaN 2]));
fprintf('%s\n', mat2str(sum([1 2; 3 4])));
fprintf('%s %s\n', mat2str(size(sum(zeros(1, 0)))), mat2str(size(sum(zeros(0, 3)))));
fprintf('%s %g\n', class(sum(single([1 2]))), sum(int8([100 100])));
