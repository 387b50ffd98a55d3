% containers.Map with char keys: counting words.
m = containers.Map();
for k = 1:6000
    key = sprintf('w%d', mod(k, 500));
    if isKey(m, key)
        m(key) = m(key) + 1;
    else
        m(key) = 1;
    end
end
v = values(m);
fprintf('%d %d\n', m.Count, sum([v{:}]));
