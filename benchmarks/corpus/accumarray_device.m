% accumarray with device subscripts and values.
% budget: uploads<=4 downloads<=2
% rtol: 1e-12
subs = gpuArray(mod((0:999)', 13) + 1);
vals = gpuArray(sin((1:1000)'));
a = accumarray(subs, vals);
fprintf('%.12g ', gather(a)); fprintf('\n');
