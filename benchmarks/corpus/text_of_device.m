% text built from device values: num2str, mat2str, sprintf, disp of gpuArray
% budget: uploads<=4 downloads<=8
% rtol: 0
v = gpuArray([1.5 -2 3.25]);
fprintf('%s\n', num2str(v));
fprintf('%s\n', mat2str(v));
s = sprintf('%g;', v);
fprintf('%s\n', s);
m = gpuArray(int16([1 2; 3 4]));
fprintf('%s\n', mat2str(m));
disp(gather(v * 2));
