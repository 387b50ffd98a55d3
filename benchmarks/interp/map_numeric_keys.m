% containers.Map with numeric keys: write then read back.
m = containers.Map('KeyType', 'double', 'ValueType', 'double');
for k = 1:6000
    m(mod(k * 7, 1000)) = k;
end
t = 0;
for k = 0:999
    t = t + m(k);
end
ks = keys(m);
fprintf('%d %d %d\n', m.Count, t, ks{end});
