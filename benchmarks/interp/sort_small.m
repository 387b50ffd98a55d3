% Sorting small vectors in a loop.
t = 0;
for k = 1:36000
    v = mod((1:10) * k, 17);
    [s, i] = sort(v, 'descend');
    t = t + s(1) * 100 + i(1) + sum(sort(v) .* (1:10));
end
fprintf('%d\n', t);
