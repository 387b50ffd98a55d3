% round to decimals and to tens and hundreds, and floor of scaled values, on the device
% budget: uploads<=4 downloads<=8
% rtol: 1e-12
x = gpuArray(linspace(-3.14159, 2.71828, 41));
a = round(x, 2);
b = round(x, -1);
c = round(x * 1000, -2);
d = floor(x * 10) / 10;
fprintf('%.10g %.10g %.10g %.10g\n', gather(sum(a)), gather(sum(b)), gather(sum(c)), gather(sum(d)));
