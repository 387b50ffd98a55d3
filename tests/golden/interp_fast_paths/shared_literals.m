% Literal ranges and char literals are built once per compiled expression:
% writes into a variable holding one must never change later uses.
for k = 1:3
    v = 1:5;
    v(k) = -k;
    v(end + 1) = 10 * k;
    w = (1:4)';
    w(2) = 0;
    s = 'abc';
    s(1) = 'X';
    s(end + 1) = '!';
    u = 'descend';
    u(:) = 'z';
    fprintf('%s | %s | %s | %s | %s\n', mat2str(v), mat2str(w'), s, u, mat2str(1:5));
end
for k = 1:2
    r = 2:6;
    r(r > 3) = 0;
    r2 = 2:6;
    r2(2) = [];
    c = {1:3};
    c{1}(2) = 7;
    t = struct('f', 1:3);
    t.f(3) = 9;
    fprintf('%s %s %s %s %s\n', mat2str(r), mat2str(r2), mat2str(c{1}), mat2str(t.f), mat2str(2:6));
end
a = zeros(1, 3);
for k = 1:3
    x = 1:3;
    x = x * 2;
    a(k) = sum(x) + k;
    y = 1:3;
    y(1:2) = y(2:3);
end
fprintf('%s %s %s\n', mat2str(a), mat2str(y), mat2str(1:3));
for k = 1:2
    [s, i] = sort(1:4, 'descend');
    s(1) = 0;
    fprintf('%s %s %s\n', mat2str(s), mat2str(i), mat2str(sort(1:4, 'descend')));
end
m = 'descend';
m(1) = 'a';
try
    sort([3 1 2], m);
catch err
    fprintf('%s\n', err.identifier);
end
fprintf('%s\n', mat2str(sort([3 1 2], 'descend')));
