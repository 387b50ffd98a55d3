% cells, structs and concatenation class rules
c = {1, 'two', [3 4]};
fprintf('%s\n', class(c(2)));
fprintf('%s\n', c{2});
c{5} = 5;
fprintf('%d\n', numel(c));
fprintf('%d\n', isempty(c{4}));
d = [c, {6}];
fprintf('%d\n', numel(d));
s.a = 1;
s(2).a = 2;
fprintf('%d ', s.a); fprintf('\n');
s(3).b = 'x';
fprintf('%d %d\n', size(s));
fprintf('%d\n', isempty(s(1).b));
t = [s(1), s(2)];
fprintf('%d\n', numel(t));
try
    n = 5;
    n.f
catch err
    fprintf('%s\n', err.message);
end
try
    s(1).nope
catch err
    fprintf('%s\n', err.message);
end
m = ['ab', 67];
fprintf('%s %s\n', class(m), m);
i = [int8(1), 2.7];
fprintf('%s %d %d\n', class(i), i);
l = [true, 2];
fprintf('%s\n', class(l));
try
    bad = [1 2; 3];
catch err
    fprintf('%s\n%s\n', err.identifier, err.message);
end
e = [[], 1, []];
fprintf('%d\n', e);
