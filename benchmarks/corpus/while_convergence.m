% Power iteration with a while loop and a convergence check each step.
% budget: uploads<=4 downloads<=60
% rtol: 1e-8
A = gpuArray(reshape(cos(1:400), 20, 20)); A = A + A';
v = ones(20, 1, 'gpuArray');
lam = 0; lam_old = Inf; it = 0;
while abs(lam - lam_old) > 1e-10 && it < 50
    w = A * v; lam_old = lam; lam = norm(w); v = w / lam; it = it + 1;
end
fprintf('%.8e\n', gather(lam));
