% ismember against a small set in a loop.
set = [3 8 15 22 41 57 63 78 90 99];
names = {'ann', 'bob', 'cyd', 'dee'};
t = 0;
for k = 1:8000
    t = t + ismember(mod(k, 100), set) + ismember(names{mod(k, 4) + 1}, {'bob', 'dee'});
end
fprintf('%d\n', t);
