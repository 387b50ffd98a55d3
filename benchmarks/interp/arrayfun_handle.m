% arrayfun with an anonymous function handle.
k = 3;
a = arrayfun(@(x) x^2 + k, 1:120000);
b = arrayfun(@(x) mod(x, 7) == 0, 1:120000);
fprintf('%d %d\n', sum(a), sum(b));
