% textscan's field rules: empty fields read as EmptyValue, TreatAsEmpty,
% CommentStyle, HeaderLines, MultipleDelimsAsOne, literals in the format,
% widths, %q, %[...], %*, integer classes, CollectOutput, an empty format
% (columns counted from the first line), complex numbers, a partial last row;
% line ends separate fields like delimiters (the format wraps across lines).
c = textscan(sprintf('1,  2,  3\n 5,  ,  8'), '%f %d %f', 'Delimiter', ',', 'EmptyValue', -Inf);
fprintf('%s %s %s %s\n', mat2str(c{1}), class(c{2}), mat2str(c{2}), mat2str(c{3}));
c = textscan(sprintf('13, -, NA, str1\n// note\n36, na, 05, str3'), '%d %n %f %s', ...
             'Delimiter', ',', 'TreatAsEmpty', {'NA', 'na', '-'}, 'CommentStyle', '//');
fprintf('%s %s %s %s %s\n', mat2str(c{1}), mat2str(c{2}), mat2str(c{3}), c{4}{:});
c = textscan(sprintf('a b\n1 2\n3 4\n'), '%f %f', 'HeaderLines', 1, 'CollectOutput', true);
fprintf('%d %s\n', numel(c), mat2str(c{1}));
c = textscan(sprintf('11,, 13\n21, 22,, 23'), '%f %f %f', 'Delimiter', ',', 'MultipleDelimsAsOne', 1);
fprintf('%s\n', mat2str([c{:}]));
c = textscan(sprintf('10 miles/hr\n20 miles/hr\n'), '%f miles/hr');
fprintf('%s\n', mat2str(c{1}));
c = textscan('123.123', '%2f %3f %3f');
fprintf('%g %g %g\n', c{1}, c{2}, c{3});
c = textscan('First "the second ""one""" third', '%q');
fprintf('[%s] ', c{1}{:}); fprintf('\n');
c = textscan(sprintf('abcuvwXyz\nacwQ'), '%[abc] %*[uvw] %s');
fprintf('%s/%s %s/%s\n', c{1}{1}, c{2}{1}, c{1}{2}, c{2}{2});
c = textscan('300 -5 1e90', '%u8 %d8 %d16');
fprintf('%s %d %s %d %s %d\n', class(c{1}), c{1}, class(c{2}), c{2}, class(c{3}), c{3});
c = textscan(sprintf('1,,3\n4,5,6'), '', 'Delimiter', ',');
fprintf('%d %s\n', numel(c), mat2str([c{:}]));
c = textscan('0, 5+6j, -Inf, NaN', '%f', 'Delimiter', ',');
fprintf('%d %g%+gi\n', isreal(c{1}), real(c{1}(2)), imag(c{1}(2)));
c = textscan(sprintf('1 2 3\n4 5'), '%f %f %f');
fprintf('%s %s\n', mat2str(c{3}), mat2str(c{2}));
c = textscan('1 2 3 4', '%f', 2);
fprintf('%s\n', mat2str(c{1}));
c = textscan(sprintf('\t\ta\tb'), '%s', 'Delimiter', '\t');
fprintf('%d %d %s\n', numel(c{1}), isempty(c{1}{1}), c{1}{end});
