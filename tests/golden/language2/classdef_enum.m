% Enumeration members with constructor arguments.
c = Color.Red
disp([c.R c.G c.B])
disp(c == Color.Red)
disp(c == Color.Green)
disp(char(Color.Green))
disp(c == 'Red')
switch Color.Green
  case Color.Red
    disp('red')
  case Color.Green
    disp('green')
end
enumeration('Color')
[m, names] = enumeration('Color');
disp(size(m))
disp(names')
