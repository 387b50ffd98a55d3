% Elementwise chain on plain arrays (no gpuArray anywhere).
% budget: uploads<=4 downloads<=2
% rtol: 1e-10
if ~exist('n','var'), n = 100000; end
x = linspace(0, 10, n);
y = sin(x) .* exp(-x/5) + cos(2*x).^2 - tanh(x - 5);
fprintf('%.10e\n', sum(y));
