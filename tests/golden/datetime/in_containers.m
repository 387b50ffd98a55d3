% datetime and duration values inside structs and cells, and in function application
s.when = datetime(2020,1,15);
s.took = hours(1.5);
s.days = datetime(2020,1,1:3);
s
c = {datetime(2020,1,15), hours(2), 5}
t = datetime(2020,1,1:3);
d = arrayfun(@(x) day(x), t)
k = cellfun(@year, {t(1), t(3)})
for x = t(1:2)
    fprintf('%s\n', x);
end
