x = [];
if isempty(x) || x(1) > 0
    disp('short-circuit or');
end
if ~isempty(x) && x(1) > 0
    disp('not shown');
else
    disp('short-circuit and');
end
a = 0;
b = (a ~= 0) && (1 / a > 1);
fprintf('%d\n', b);
fprintf('%d\n', true || error('never'));
try
    if [1 2] && true, end
catch err
    disp(err.identifier);
end
