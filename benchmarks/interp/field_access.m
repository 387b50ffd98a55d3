% Reading and writing fields of a scalar struct.
s.count = 0;
s.total = 0;
s.scale = 3;
for k = 1:200000
    s.count = s.count + 1;
    s.total = s.total + s.scale * mod(k, 4);
end
fprintf('%d %d\n', s.count, s.total);
