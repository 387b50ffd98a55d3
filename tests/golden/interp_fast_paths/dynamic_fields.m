% s.(name) = v and s.(name) reads: names, sharing, errors.
r = struct();
for k = 1:5
    r.(sprintf('f%d', k)) = k * 10;
end
disp(strjoin(fieldnames(r)', ','));
t = r;
r.('f2') = -1;
r.f9 = 9;
fprintf('%g %g %d %d\n', r.('f2'), t.('f2'), numel(fieldnames(r)), numel(fieldnames(t)));
name = "f3";
fprintf('%g\n', r.(name));
r.(name) = 33;
fprintf('%g\n', r.f3);
u = r;
u.('new_one') = 1;
fprintf('%d %d\n', isfield(r, 'new_one'), isfield(u, 'new_one'));
bad = {'1a', '_a', 'a b', repmat('x', 1, 64), ['caf' char(233)], ''};
for k = 1:numel(bad)
    try
        r.(bad{k}) = 1;
        fprintf('accepted %d\n', k);
    catch err
        fprintf('%s\n', err.identifier);
    end
end
r.(repmat('y', 1, 63)) = 2;
fprintf('%d\n', isfield(r, repmat('y', 1, 63)));
try
    r.(5) = 1;
catch err
    fprintf('%s\n', err.identifier);
end
try
    q = r.('nothere');
catch err
    fprintf('%s\n', err.identifier);
end
try
    x = 5;
    q = x.('a');
catch err
    fprintf('%s\n', err.identifier);
end
s = struct('a', {1, 2});
try
    q = s.('a');
    fprintf('%g\n', q);
catch err
    fprintf('%s\n', err.identifier);
end
c = {s.('a')};
fprintf('%g %g\n', c{:});
z = [];
z.('w') = 4;
fprintf('%s %g\n', class(z), z.w);
