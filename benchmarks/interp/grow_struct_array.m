% Growing a struct array one element at a time: s(k).a = ...; s(k).b = ...
s = struct('a', {}, 'b', {});
for k = 1:20000
    s(k).a = k;
    s(k).b = -k;
end
fprintf('%d %d %d\n', numel(s), s(end).a, s(1).b);
