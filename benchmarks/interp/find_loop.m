% find on small vectors in a loop.
v = mod((1:200) * 13, 50);
t = 0;
for k = 1:45000
    idx = find(v == mod(k, 50));
    first = find(v >= mod(k, 50), 1);
    t = t + sum(idx) + first;
end
fprintf('%d\n', t);
