% Arrays of objects: concatenation, indexing, growth with default objects,
% property cs-lists, deletion and for-loops over columns.
ps = [Point(1, 2), Point(3, 4)]
disp(size(ps))
q = ps(2);
disp(q.X)
ps(4) = Point(7, 8);
disp(size(ps))
disp([ps.X])
ps(2).X = 30;
disp([ps.X])
for p = ps
  fprintf('%g ', p.Y);
end
fprintf('\n');
ps(1) = [];
disp(numel(ps))
disp(isa(ps, 'Point'))
disp(class(ps))
e = Counter.empty;
disp(size(e))
c(2) = Counter('b');
disp(c(1).Count)
x = ps(end).X
qs = [Point(1, 2), Point(3, 4), Point(5, 6)];
[qs.X] = deal(0);
disp([qs.X])
[qs(2:3).Y] = deal(7, 8);
disp([qs.Y])
