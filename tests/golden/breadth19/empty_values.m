% struct([]) and other empty values: queries, growth by assignment, display.
s = struct([]);
disp([isempty(s) numel(s) isstruct(s)])
disp(size(fieldnames(s)))
s(1).a = 5;
disp(s.a)
t = struct([]);
t(3).b = 'x';
disp(size(t))
u = [struct([]) struct('a', 1)];
disp(size(u))
e = struct('a', {})
disp(size(e))
v = struct('a', {{}})
w = repmat(struct('q', 1), 0, 1);
disp(size(w))
z = zeros(0, 3)
c = {}
x = []
