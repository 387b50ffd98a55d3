% Operator overloading and an overloaded disp.
m = Money(5) + Money(2.5)
m2 = m * 2;
disp(m2.Amount)
m3 = m .* 3;
disp(m3.Amount)
d = Money(10) - Money(4);
disp(d.Amount)
disp(Money(1) == Money(1))
disp(Money(1) < Money(2))
n = -m;
disp(n.Amount)
disp(m)
try
  w = Money(1) ./ Money(2);
catch err
  disp(err.message)
end
