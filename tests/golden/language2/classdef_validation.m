% Property class/size validation converts values; scalars expand to the
% declared size; a value of the wrong size is an error.
s = Sized();
disp(class(s.N))
disp(s.V)
s.V = 2;
disp(s.V)
s.N = 300;
disp(s.N)
disp(class(s.Name))
disp(size(s.Name))
try
  s.V = [1 2];
catch err
  disp(err.identifier)
end
