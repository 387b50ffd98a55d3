% classdef: Dependent properties with get methods, set methods that
% validate, private and protected methods (callable only from the class,
% and protected ones from subclasses), abstract classes, object arrays.
t = Thermo;
t.Celsius = 100;
disp(t.Fahrenheit)
disp(t.twice)
try
  t.Celsius = -300;
catch err
  disp(err.identifier)
end
try
  t.secret();
catch err
  disp(err.identifier); disp(err.message)
end
t
v = Vault;
disp(v.useSecret())
try
  v.helper();
catch err
  disp(err.identifier)
end
try
  helper(v);
catch err
  disp(err.identifier)
end
try
  v.prot();
catch err
  disp(err.identifier)
end
s = SubVault;
disp(s.callProt())
try
  s.callPriv();
catch err
  disp(err.identifier)
end
disp(s.useSecret())
m = methods(v);
disp(ismember({'helper', 'prot', 'useSecret'}, m))
q = Square(3);
disp(q.describe())
try
  f = Figure2d();
catch err
  disp(err.identifier)
end
arr = [Square(1) Square(2) Square(3)];
disp(size(arr))
disp(arr(2).S)
disp([arr.S])
disp(class(arr))
disp([isa(q, 'Figure2d') isa(arr, 'Square')])
