% complex arithmetic on the device
% budget: uploads<=4 downloads<=8
% rtol: 1e-10
t = gpuArray(linspace(0, 2*pi, 257));
z = exp(1i * t) .* (1 + 0.5 * t);
w = z .* conj(z);
r = abs(z); ph = angle(z);
q = z ./ (1 + 1i);
s = sqrt(-t);
fprintf('%.10f %.10f %.10f %.10f\n', gather(sum(real(w))), gather(sum(r)), gather(sum(ph)), gather(sum(imag(q))));
fprintf('%.10f %d\n', gather(sum(imag(s))), isreal(gather(w)));
