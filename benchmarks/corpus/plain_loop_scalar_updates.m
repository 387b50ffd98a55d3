% A plain-array loop with host scalar bookkeeping around array updates.
% budget: uploads<=4 downloads<=2
% rtol: 1e-10
if ~exist('n','var'), n = 20000; end
if ~exist('T','var'), T = 10; end
x = linspace(0, 1, n);
acc = zeros(1, n);
step = 0;
for t = 1:T
    step = step + 1;
    w = 1 / (step + 1);
    acc = acc + w * sin(x * t);
end
fprintf('%.10e\n', sum(acc));
