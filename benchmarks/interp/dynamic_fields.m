% Adding fields by dynamic name: r.(name) = value.
r = struct();
for k = 1:60000
    r.(sprintf('f%d', k)) = k;
end
t = 0;
names = fieldnames(r);
for k = 1:numel(names)
    t = t + r.(names{k});
end
fprintf('%d %d\n', numel(names), t);
