% Indexed stores into a preallocated gpuArray inside a loop.
% budget: uploads<=4 downloads<=2
% rtol: 1e-12
if ~exist('n','var'), n = 200; end
x = gpuArray(linspace(0, 1, n));
y = zeros(1, n, 'gpuArray');
for k = 1:n
    y(k) = x(k)^2 + 1;
end
fprintf('%.12e\n', gather(sum(y)));
