% datetime components, properties, formats and serial date interop
t = datetime(2024,2,29,13,45,30.25);
disp([year(t) month(t) day(t) hour(t) minute(t)])
disp(second(t))
[y, m, d] = ymd(t);
disp([y m d])
[h, mi, s] = hms(t);
disp([h mi s])
disp(weekday(t))
[n, name] = weekday(datetime(2024,1,1));
disp(n)
disp(name)
disp(day(t, 'dayofyear'))
names = month(t, 'name');
disp(names{1})
disp(quarter(t))
disp(t.Year)
disp(t.Format)
t.Format = 'yyyy-MM-dd HH:mm:ss.SSS';
fprintf('%s\n', char(t));
t.Format = 'eeee, MMMM d, yyyy h:mm a';
fprintf('%s\n', char(t));
u = datetime(2020,5,6,7,8,9);
u.Day = 20;
fprintf('%s\n', char(u));
fprintf('%.4f\n', datenum(datetime(2020,7,28,12,0,0)));
disp(posixtime(datetime(1970,1,2)))
fprintf('%.1f\n', juliandate(datetime(2000,1,1,12,0,0)));
dv = datevec(datetime(2020,7,28,6,30,15));
disp(dv)
disp(datestr(datetime(2020,7,28,10,0,0)))
tod = timeofday(datetime(2020,1,1,6,30,0))
