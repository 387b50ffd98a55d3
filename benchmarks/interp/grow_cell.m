% Growing a cell row with c{end+1} = sprintf(...).
c = {};
for k = 1:60000
    c{end+1} = sprintf('%d', k);
end
fprintf('%d %s %s\n', numel(c), c{1}, c{end});
