% Number <-> text conversions in a loop.
t = 0;
for k = 1:5000
    s = num2str(k * 3);
    t = t + str2double(s) + numel(int2str(k));
end
fprintf('%d\n', t);
