% Inheritance: the subclass constructor calls obj@Animal(name); describe
% calls the superclass version with describe@Animal(obj).
x = Dog('Rex', 'lab');
disp(x.speak())
disp(x.describe())
disp(isa(x, 'Animal'))
disp(isa(x, 'Dog'))
disp(isa(x, 'double'))
disp(class(x))
a = Animal('Cat');
disp(speak(a))
disp(describe(a))
x
