% Shapes of empty results, MATLAB's rules (find: a scalar or 0x0 input with
% no nonzero gives 0x0, a row gives 1x0, anything else 0x1; text trimmed to
% nothing is 0x0, an empty pattern finds []).
fprintf('%d %d\n', size(find(0)));
fprintf('%d %d\n', size(find(false)));
fprintf('%d %d\n', size(find([])));
fprintf('%d %d\n', size(find(zeros(1, 3))));
fprintf('%d %d\n', size(find(zeros(0, 2))));
fprintf('%d %d\n', size(find(zeros(2, 2))));
[r, c, v] = find(0);
fprintf('%d %d / %d %d / %d %d\n', size(r), size(c), size(v));
[A, B, C] = cellfun(@find, {10, 11; 0, 12}, 'UniformOutput', false);
fprintf('%d %d %d\n', isequal(A, {1, 1; [], 1}), isequal(B, {1, 1; [], 1}), isequal(C, {10, 11; [], 12}));
fprintf('%d %d\n', size(deblank('   ')));
fprintf('%d %d\n', size(deblank('')));
fprintf('%d %d\n', size(deblank(['   '; '   '])));
fprintf('%d %d\n', size(strtrim(sprintf(' \t '))));
d = deblank({' ab  ', '   '});
fprintf('[%s] %d %d\n', d{1}, size(d{2}));
fprintf('%d %d\n', size(strfind('abc', '')));
f = strfind({'abc', 'def'}, '');
fprintf('%d %d %d %d\n', size(f{1}), size(f{2}));
fprintf('%d %d\n', size(strfind('abc', 'x')));
f = strfind('abababa', 'aba', 'ForceCellOutput', true);
fprintf('%s %d %d: %s\n', class(f), size(f), mat2str(f{1}));
fprintf('%d %d %s\n', size(strjoin({}, ', ')), class(strjoin({}, ', ')));
fprintf('%s\n', strjoin({'a', 'b'}, {'\n'}));
fprintf('%s\n', strjoin({'a', 'b'}, '\t'));
fprintf('%d %d\n', size(ndgrid([], [])));
fprintf('%d %d\n', size(ndgrid(1:2, 1:3)));
s = cell2struct({}, {'f'}, 3);
names = fieldnames(s);
fprintf('%d %d %s\n', size(s), names{1});
