% Struct and cell heavy loop: field updates, cell reads/writes, indexing.
n = 50000;
s.count = 0;
s.total = 0;
c = cell(1, 100);
for k = 1:100
    c{k} = k * 2;
end
v = zeros(1, n);
for i = 1:n
    j = mod(i, 100) + 1;
    s.count = s.count + 1;
    s.total = s.total + c{j};
    v(i) = s.total;
    if mod(i, 1000) == 0
        c{j} = c{j} + 1;
    end
end
fprintf('%d %d %d\n', s.count, s.total, v(end));
