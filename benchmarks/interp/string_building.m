% Building strings: sprintf, num2str, strcat, upper.
parts = cell(1, 5000);
for k = 1:5000
    parts{k} = [upper(sprintf('item%d', k)) '=' num2str(mod(k, 97))];
end
s = strjoin(parts, ';');
fprintf('%d %s\n', numel(s), parts{end});
