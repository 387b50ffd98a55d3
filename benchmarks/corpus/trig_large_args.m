% Trigonometry of large arguments must be reduced correctly on the device.
% budget: uploads<=4 downloads<=4
% rtol: 1e-12
x = gpuArray([1e22 6.9e9 1e12 1e15 -3e10 pi]);
fprintf('%.12e ', gather(sin(x)), gather(cos(x))); fprintf('\n');
