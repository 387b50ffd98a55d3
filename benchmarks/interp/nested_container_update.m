% Nested in-place updates: s(k).c{j}(i) = v.
s = struct('c', cell(1, 600));
for k = 1:600
    s(k).c = {zeros(1, 60), zeros(1, 60)};
end
for r = 1:60
    for k = 1:600
        for j = 1:2
            s(k).c{j}(r) = k * j + r;
        end
    end
end
t = 0;
for k = 1:600
    t = t + sum(s(k).c{1}) + sum(s(k).c{2});
end
fprintf('%d\n', t);
