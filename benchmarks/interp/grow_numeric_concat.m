% Growing a numeric row by concatenation: x = [x v].
x = [];
for k = 1:20000
    x = [x, mod(k, 13)];
end
fprintf('%d %d\n', numel(x), sum(x));
