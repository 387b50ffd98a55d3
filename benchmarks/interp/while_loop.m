% while loops: Collatz sequence lengths.
total = 0;
for start = 1:3000
    n = start;
    steps = 0;
    while n ~= 1
        if mod(n, 2) == 0
            n = n / 2;
        else
            n = 3 * n + 1;
        end
        steps = steps + 1;
    end
    total = total + steps;
end
fprintf('%d\n', total);
