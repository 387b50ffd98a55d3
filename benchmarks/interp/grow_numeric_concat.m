% Growing a numeric row by concatenation: x = [x v].
x = [];
for k = 1:40000
    x = [x, mod(k, 13)];
end
fprintf('%d %d\n', numel(x), sum(x));
