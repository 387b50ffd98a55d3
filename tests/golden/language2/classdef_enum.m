% Enumeration members with constructor arguments.
c = Color.Red
disp([c.R c.G c.B])
disp(c == Color.Red)
disp(c == Color.Green)
disp(char(Color.Green))
