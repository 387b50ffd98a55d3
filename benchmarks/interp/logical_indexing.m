% Logical indexing of small vectors in a loop.
v = mod((1:100) * 37, 101);
t = 0;
for k = 1:50000
    sel = v(v > mod(k, 100));
    v2 = v;
    v2(v2 < 10) = 0;
    t = t + numel(sel) + sum(v2);
end
fprintf('%d\n', t);
