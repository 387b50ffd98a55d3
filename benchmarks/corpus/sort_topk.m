% Sorting and top-k on the device.
% budget: uploads<=4 downloads<=4
% rtol: 0
x = gpuArray(mod((1:3000) * 7919, 1009));
[s, i] = sort(x, 'descend');
t = maxk(x, 5);
fprintf('%g ', gather(s(1:5)), gather(i(1:5)), gather(t)); fprintf('\n');
