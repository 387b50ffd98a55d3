% disp, format long, wide matrices and N-D arrays.
disp(5)
disp(pi)
disp([1 2 3])
disp('plain text')
disp([])
disp({1, 'a'})
x = 1:20
format long
y = pi
z = [pi; 1]
format short
w = pi
A = reshape(1:8, 2, 2, 2)
