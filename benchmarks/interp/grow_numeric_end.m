% Growing a numeric row with x(end+1) = v.
x = [];
for k = 1:200000
    x(end+1) = k * 2;
end
fprintf('%d %d\n', numel(x), sum(x));
