% Struct arrays whose elements hold structs: s(k).inner.val.
s = struct('name', {}, 'inner', {});
for k = 1:8000
    s(k).name = 'node';
    s(k).inner.val = k;
    s(k).inner.tag = mod(k, 3);
end
t = 0;
for k = 1:numel(s)
    t = t + s(k).inner.val * s(k).inner.tag;
end
fprintf('%d %d\n', numel(s), t);
