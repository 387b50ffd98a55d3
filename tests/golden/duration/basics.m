% duration construction, formats, arithmetic and conversion back to numbers
h = hours(1.5)
m = minutes([1 10 100])
d = duration(1,30,0)
disp(hours(d))
disp(seconds(d))
s = seconds(28225.6)
s.Format = 'hh:mm:ss.SSS'
e = d + minutes(5)
disp(d > minutes(60))
x = d * 2
y = d / 3
r = d / minutes(15)
n = -d
disp(class(d))
fprintf('%s\n', char(days(2)));
fprintf('%s\n', char(days(1)));
fprintf('%s\n', char(years(1)));
fprintf('%s|\n', hours(2));
k = duration(25,0,5, 'Format', 'dd:hh:mm:ss')
[hh, mm, ss] = hms(duration(2,15,30));
disp([hh mm ss])
t = sum([hours(1) minutes(30)])
disp(isduration(t))
q = duration('01:02:03')
c = calmonths(14)
g = caldays(3) + calyears(1)
