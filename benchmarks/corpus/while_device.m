% while loop whose condition reads a device scalar (Newton iteration)
% budget: uploads<=4 downloads<=40
% rtol: 1e-9
x = gpuArray(linspace(1, 10, 1000));
r = x;
it = 0;
while max(abs(r .* r - x)) > 1e-12 && it < 30
    r = 0.5 * (r + x ./ r);
    it = it + 1;
end
fprintf('%d %.12f\n', it, gather(sum(r)));
