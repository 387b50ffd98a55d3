% Value class: construction, properties, methods, static and constant
% members, dependent property, copy semantics and the default display.
p = Point(3, 4)
q = Point();
disp([q.X q.Y])
n = p.Norm
s = p.scale(2);
disp([s.X s.Y])
s2 = scale(p, 3);
disp([s2.X s2.Y])
u = Point.unit();
disp([u.X u.Y])
o = Units.Origin
disp(Units.toMilli(2.5))
p2 = p;
p2.X = 10;
disp([p.X p2.X])
p.X(1) = 5;
disp(p.X)
disp(class(p))
disp(isa(p, 'Point'))
disp(isobject(p))
disp(isequal(Point(1, 2), Point(1, 2)))
disp(isequal(Point(1, 2), Point(1, 3)))
t.pt = p
c = {p, 1}
