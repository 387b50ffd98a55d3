% Handle class: every variable refers to the same object; a set method
% guards a property; == compares identity.
c = Counter('clicks');
c.increment();
c.increment(5);
d = c;
d.increment;
disp(c.Count)
try
  c.Count = -1;
catch err
  disp(err.identifier)
  disp(err.message)
end
c
disp(isa(c, 'handle'))
disp(c == d)
disp(c == Counter('clicks'))
b = Box();
b.Data(3) = 7;
disp(b.Data)
b.Meta.tag = 'x';
disp(b.Meta.tag)
b.Child = Box();
b.Child.Data = [1 2];
disp(b.Child.count())
disp(b.peek())
