% x(k) = v and c{k} = v element writes: sharing, growth, classes, errors.
x = zeros(1, 4);
y = x;
for k = 1:4
    x(k) = k * 10;
end
x(2) = -1;
fprintf('%s %s\n', mat2str(x), mat2str(y));
m = magic(3);
k = 8;
m(k) = 0;
fprintf('%s\n', mat2str(m));
x(6) = 6;
fprintf('%s\n', mat2str(x));
k = 2;
x(k) = true;
fprintf('%s %s\n', class(x), mat2str(x));
x(k) = 1i;
fprintf('%s %d\n', class(x), isreal(x));
z = int8([1 2 3]);
z(k) = 300;
fprintf('%s %s\n', class(z), mat2str(z));
s = 'abc';
s(k) = 'X';
fprintf('%s\n', s);
r = 1:5;
q = r;
r(k) = 50;
fprintf('%s %s\n', mat2str(r), mat2str(q));
bad = {0, 1.5, NaN, -1};
for j = 1:numel(bad)
    k = bad{j};
    try
        x(k) = 1;
    catch err
        fprintf('%s\n', err.identifier);
    end
end
c = cell(1, 3);
d = c;
k = 2;
c{k} = 'two';
c{3} = [1 2];
c{1} = [];
fprintf('%s %s %d %d\n', class(c{2}), c{2}, numel(c{3}), isempty(d{2}));
c{5} = 5;
fprintf('%d\n', numel(c));
e = c;
e{1} = {7};
fprintf('%s %s\n', class(e{1}), class(c{1}));
g = cell(2, 2);
k = 3;
g{k} = 'x';
fprintf('%s\n', g{1, 2});
n = 4;
try
    n{1} = 2;
catch err
    fprintf('%s\n', err.identifier);
end
w = zeros(2, 2, 2);
k = 8;
w(k) = 1;
fprintf('%g\n', sum(w(:)));
v = [1 2 3];
k = 3;
v(k) = v(1) + v(2);
fprintf('%s\n', mat2str(v));
