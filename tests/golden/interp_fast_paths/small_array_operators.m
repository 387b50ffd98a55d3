% Elementwise operators on small double matrices and scalars: classes,
% shapes, special values, and the cases that take the general path.
v = [1 -2 0 NaN Inf -0];
k = 2;
show = @(x) fprintf('%s %s %s\n', class(x), mat2str(size(x)), mat2str(x));
show(v + k); show(k - v); show(v .* k); show(v * k); show(k * v);
show(v ./ k); show(v / k); show(k ./ v); show(v ./ 0);
show(v > k); show(v >= 0); show(k < v); show(v == 0); show(v ~= v); show(0 <= v);
show(1 ./ (v * -1));
c = [1; 2; 3];
show(c + 1); show(c .* c); show(c - c'); show(c' .* [4 5 6]);
m = [1 2; 3 4];
show(m * m); show(m .* m); show(m / 2); show(2 ./ m); show(m == m');
show(m .* [10 20]);
try
    show(m .* [1 2 3]);
catch err
    fprintf('%s\n', err.identifier);
end
try
    show(m * [1 2 3]);
catch err
    fprintf('%s\n', err.identifier);
end
try
    show(2 / m);
catch err
    fprintf('%s\n', err.identifier);
end
show(single([1 2]) * k); show(int8([100 120]) + k); show(int8([1 2]) .* [2.6 3]);
show(true(1, 3) + 1); show([true false] .* [2 3]); show('ab' + 1); show(k - 'ab');
show(zeros(1, 0) + 1); show([] == 2); show(5 + 2);
n = ones(2, 2, 2);
show(size(n * 2)); show(size(n + n));
w = [1 2 3];
u = w;
x = u + 1;
x(1) = 50;
show(w); show(u); show(x);
r = (1:4) * k;
r(2) = -1;
show(r);
show((1:3) .* (4:6)); show((1:3) == 2);
