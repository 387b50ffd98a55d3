% Comma-separated-list targets of multiple assignment.
c = cell(1, 3);
[c{:}] = deal(0);
disp(c)
s = struct('v', {1, 2, 3});
[s.v] = deal(9);
disp([s.v])
q = {10, 20};
[a, b] = q{:};
disp([a b])
t = struct('f', {1, 2, 3});
[t(1:2).f] = deal('x', 'y');
disp([t(1).f t(2).f])
disp(t(3).f)
[c{1:2}] = deal(7, 8);
disp(c)
[d{1:3}] = deal(1, 2, 3);
disp(d)
[r.a, r.b] = deal('p', 'q');
disp(r)
e = cell(2, 2);
[e{:}] = counted();
disp(e)
name = 'v';
[s.(name)] = deal(4);
disp([s.v])
[s(4).v] = deal(5);
disp(size(s))
[k{1:2}] = size(ones(4, 5))
[x, ~, z] = counted();
disp([x z])
function varargout = counted()
% varargout sized by the caller's nargout
for n = 1:nargout
    varargout{n} = n * 10;
end
end
