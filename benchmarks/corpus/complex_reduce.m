% complex reductions and products on the device
% budget: uploads<=4 downloads<=10
% rtol: 1e-10
z = gpuArray(complex(cos(1:20), sin((1:20) / 3)));
a = sum(z); b = prod(z(1:5)); c = mean(z); d = cumsum(z);
e = z * z'; f = z .^ 2; g = abs(z) .* angle(z);
fprintf('%.10f %.10f %.10f %.10f %.10f %.10f %.10f %.10f\n', real(gather(a)), imag(gather(b)), real(gather(c)), imag(gather(d(end))), real(gather(e)), real(gather(sum(f))), gather(sum(g)), imag(gather(sum(f))));
