disp('before');
x = [1 2 3];
y = x(7);
disp('after');
