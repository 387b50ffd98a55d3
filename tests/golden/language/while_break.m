k = 0;
while true
    k = k + 1;
    if k > 5
        break;
    end
    if mod(k, 2) == 0
        continue;
    end
    fprintf('%d ', k);
end
fprintf('\nk=%d\n', k);
total = 0;
for i = 1:3
    for j = 1:3
        if j == 2, break; end
        total = total + 10 * i + j;
    end
end
fprintf('%d\n', total);
n = 10;
while n > 1
    n = n / 2;
end
fprintf('%g\n', n);
