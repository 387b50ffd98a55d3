% Validation and access errors of classdef properties.
p = Point(1, 2);
try
  p.Y = Inf;
catch err
  disp(err.message)
end
try
  p.Nope
catch err
  disp(err.identifier)
  disp(err.message)
end
b = Box();
try
  b.Secret
catch err
  disp(err.identifier)
end
try
  b.Secret = 1;
catch err
  disp(err.identifier)
end
try
  p = Point(1, 2, 3);
catch err
  disp(err.identifier)
end
try
  q = Units();
  q.Scale = 3;
catch err
  disp(err.identifier)
end
