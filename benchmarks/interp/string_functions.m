% strtrim / lower / strrep / strsplit on short strings in a loop.
t = 0;
for k = 1:8000
    s = sprintf('  Item %d, Value %d  ', k, mod(k, 9));
    s = lower(strtrim(s));
    s = strrep(s, 'value', 'v');
    p = strsplit(s, ',');
    t = t + numel(s) + numel(p);
end
fprintf('%d\n', t);
