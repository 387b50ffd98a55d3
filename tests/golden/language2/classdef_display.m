% An overloaded display (using inputname) and overloaded conversion and
% size-query methods; format compact with an object.
t = Temp(21.5)
disp(double(t) + 1)
disp(length(t))
h = Temp(3);
h
format compact
c = Counter('n')
format loose
