% Comma-separated-list targets: every form of multiple assignment MATLAB
% documents (cell contents, struct fields of arrays, ranges, dynamic names).
c = cell(1, 3);
[c{:}] = deal(0);
disp(c)
s = struct('v', {1, 2});
[s.v] = deal(9);
disp([s.v])
src = {'p', 'q', 'r'};
[a, b] = src{1:2};
disp([a b])
t = struct('f', {1, 2, 3});
vals = {'x', 'y'};
[t(1:2).f] = vals{:};
disp([t(1).f t(2).f])
disp(t(3).f)
[t.f] = src{:};
disp([t.f])
[c{2:3}] = src{2:3};
disp(c)
m = {};
[m{1:2}] = deal('first', 'second');
disp(size(m))
[st.a, st.b] = deal(1, 2);
disp(st)
u = struct('w', {0, 0});
[u.w, extra] = deal(5, 6, 7);
disp([u.w extra])
[p, q] = size(zeros(2, 5));
disp([p q])
[~, idx] = max([3 9 4]);
disp(idx)
try
  [g, h] = src{1};
catch err
  disp(err.identifier)
end
try
  [t.f] = deal(1, 2);
catch err
  disp(err.identifier)
end
