% How numbers print without a semicolon (format short, loose).
a = 5
b = -3.5
c = pi
d = 1e-5
e = 123456.7
f = [1 2 3]
g = [1.5 -2.25; 100.5 4]
h = [1000.5 2]
k = [1 1000]
m = [1 NaN Inf]
n = []
p = zeros(1, 0)
q = 3 + 4i
r = int8([1 -2 3])
t = true
u = [true false true]
v = uint16(7)
