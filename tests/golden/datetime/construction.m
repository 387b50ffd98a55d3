% datetime construction: components, text, date vectors, ConvertFrom, NaT
d = datetime(2020,1,15)
t = datetime(2020,1,15,10,30,45)
fprintf('%s\n', char(datetime(2021,12,31,23,59,59)));
fprintf('%s\n', char(datetime('2021-03-04')));
fprintf('%s\n', char(datetime('04-Mar-2021 08:15:00')));
fprintf('%s\n', char(datetime('03/04/2021', 'InputFormat', 'dd/MM/yyyy')));
fprintf('%s\n', char(datetime(738000, 'ConvertFrom', 'datenum')));
fprintf('%s\n', char(datetime(0, 'ConvertFrom', 'posixtime')));
fprintf('%s\n', char(datetime(20200115, 'ConvertFrom', 'yyyymmdd')));
fprintf('%s\n', char(datetime(2020,1,15, 'Format', 'yyyy-MM-dd')));
% out-of-range months and days carry over
fprintf('%s\n', char(datetime(2020,14,1)));
fprintf('%s\n', char(datetime(2020,3,0)));
disp(class(d))
disp(isdatetime(d))
disp(isdatetime(5))
n = NaT;
disp(isnat(n))
fprintf('%s\n', char(n));
v = datetime([2020 1 1 0 0 0; 2021 2 2 3 3 3])
disp(size(v))
disp(numel(NaT(2,3)))
try
    datetime('not a date')
catch err
    disp(err.identifier)
end
try
    datetime('2020-13-45', 'InputFormat', 'yyyy-MM-dd')
catch err
    disp(err.message)
end
