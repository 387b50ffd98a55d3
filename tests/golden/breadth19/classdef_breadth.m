% classdef: defaults, validation, constructors, static methods, value vs
% handle semantics, inheritance, isa, properties/methods, operators, disp.
a = Vec(1, 2);
b = Vec(3, 4);
c = a + b;
disp(c)
d = 2 * a;
disp(d)
e = a * 3;
disp(e)
disp(b - a)
disp(-a)
disp(a == Vec(1, 2))
disp(a == b)
disp(norm(b))
disp(b.norm())
u = Vec.unitX();
disp(u)
disp(Vec.Dims)
z = Vec;
fprintf('%g %g %s\n', z.X, z.Y, z.Label);
% value semantics: a copy is independent
w = a;
w.X = 100;
fprintf('%g %g\n', a.X, w.X);
% validation
a.X = int8(7);
disp(class(a.X))
try
  a.X = [1 2];
catch err
  disp(err.identifier)
end
try
  a.Y = Inf;
catch err
  disp(err.identifier)
end
try
  a.Nope = 1;
catch err
  disp(err.identifier)
end
p = properties(a);
disp(p')
m = methods(a);
disp(all(ismember({'norm', 'plus', 'mtimes', 'eq', 'unitX', 'Vec'}, m)))
properties(a)
disp(isa(a, 'Vec'))
disp(class(a))
% handle semantics
acct = Account('ann', 10);
alias = acct;
deposit(alias, 5);
disp(acct.Balance)
disp(acct.History)
try
  acct.History = 1;
catch err
  disp(err.identifier)
end
% inheritance
s = Savings('bob', 100, 0.1);
addInterest(s);
disp(s.Balance)
disp(describe(s))
disp(describe(acct))
disp([isa(s, 'Savings') isa(s, 'Account') isa(s, 'handle') isa(acct, 'Savings')])
disp(superclasses(s)')
s2 = s;
s2.Rate = 0.2;
disp(s.Rate)
disp(isequal(s, s2))
disp(s == s2)
