% Twin of ../elementwise_plain.m written with an explicit gpuArray (for the GPU table).
if ~exist('n','var'), n = 100000; end
x = gpuArray(linspace(0, 10, n));
y = sin(x) .* exp(-x/5) + cos(2*x).^2 - tanh(x - 5);
fprintf('%.10e\n', gather(sum(y)));
