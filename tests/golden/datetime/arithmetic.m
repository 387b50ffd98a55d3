% datetime arithmetic, comparisons, ranges, sorting, between, dateshift
d = datetime(2020,1,15);
t = d + hours(36)
x = datetime(2020,1,15,10,30,45) - d
fprintf('%s\n', char(d + 1));
fprintf('%s\n', char(d - days(15)));
fprintf('%s\n', char(datetime(2020,1,31) + calmonths(1)));
fprintf('%s\n', char(datetime(2020,2,29) + calyears(1)));
fprintf('%s\n', char(d + caldays(20)));
disp(d < t)
disp(d == datetime(2020,1,15))
disp(d == '15-Jan-2020')
r = d:caldays(1):d+2
w = r'
r(2) = datetime(2022,2,2);
r(5) = datetime(2023,3,3)
r(1) = []
s = sort([datetime(2021,1,1) d datetime(2020,6,1)])
[m, i] = max(s)
dd = diff(s)
disp(days(dd))
b = between(datetime(2020,1,15), datetime(2021,3,20))
fprintf('%s\n', char(dateshift(datetime(2020,5,17,13,45,0), 'start', 'month')));
fprintf('%s\n', char(dateshift(datetime(2020,2,17), 'end', 'month')));
fprintf('%s\n', char(dateshift(datetime(2020,5,17,13,45,0), 'start', 'day', 'next')));
c = cellstr([d d+1])
disp(isequal(d, datetime(2020,1,15)))
