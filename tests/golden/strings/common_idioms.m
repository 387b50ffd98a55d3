% Text idioms seen in everyday MATLAB programs.
x = 3.75;
disp(['Value: ' num2str(x)])
disp(['Count: ', int2str(12.4), ' items'])
M = [1.5 2.25; 3 4];
fprintf('%6.2f %6.2f\n', M');
names = {'alpha', 'beta', 'gamma'};
for k = 1:numel(names)
    fprintf('%d: %s (%d chars)\n', k, names{k}, length(names{k}));
end
msg = sprintf('%s, ', names{:});
msg = msg(1:end-2)
line = strjoin(cellfun(@(s) upper(s), names, 'UniformOutput', false), '|')
csv = '1.5,2,abc,4';
vals = str2double(strsplit(csv, ','))
words = regexp('The quick brown fox', '\s+', 'split');
fprintf('%d words, longest %d\n', numel(words), max(cellfun(@length, words)));
padded = sprintf('[%-8s][%8s]', 'left', 'right')
fprintf('%s\n', mat2str([0.1 0.25; -3 1e-3]));
t = sprintf('%d', []);
disp(isempty(t))
report = sprintf('%s=%g\n', 'a', 1, 'b', 2.5);
fprintf('%s', report);
