% Filling a preallocated cell and reading it back.
n = 150000;
c = cell(1, n);
for k = 1:n
    c{k} = k * 3;
end
t = 0;
for k = 1:n
    t = t + c{k};
end
fprintf('%d\n', t);
