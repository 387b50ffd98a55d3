% Horner evaluation in a loop over coefficients (scalar coefficients, device x).
% budget: uploads<=4 downloads<=2
% rtol: 1e-10
p = [0.5 -1 2 0.25 -3 1];
x = gpuArray(linspace(-1, 1, 5000));
y = zeros(size(x), 'like', x);
for k = 1:numel(p)
    y = y .* x + p(k);
end
fprintf('%.10e %.10e\n', gather(sum(y)), gather(sum(polyval(p, x))));
