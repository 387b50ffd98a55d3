% Growing a char row by concatenation: s = [s sprintf(...)].
s = '';
for k = 1:40000
    s = [s sprintf('%d,', k)];
end
fprintf('%d %s\n', numel(s), s(end-6:end));
