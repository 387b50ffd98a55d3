% cellfun with anonymous and named function handles.
c = num2cell(1:120000);
a = cellfun(@(x) x * 2 + 1, c);
b = cellfun(@numel, c);
d = cellfun(@(x) [x x], c, 'UniformOutput', false);
fprintf('%d %d %d\n', sum(a), sum(b), numel(d{end}));
