% mod/rem/floor/fix/round with negative and non-integer values, idivide forms
% budget: uploads<=4 downloads<=10
% rtol: 0
x = gpuArray(-7.5:0.5:7.5);
fprintf('%g ', gather(mod(x, 3))); fprintf('\n');
fprintf('%g ', gather(rem(x, -3))); fprintf('\n');
fprintf('%g ', gather(round(x)), gather(fix(x))); fprintf('\n');
a = gpuArray(int16(-9:9));
fprintf('%d ', gather(idivide(a, int16(4))), gather(idivide(a, int16(4), 'floor')), gather(idivide(a, int16(4), 'round')), gather(idivide(a, int16(4), 'ceil'))); fprintf('\n');
fprintf('%d ', gather(mod(a, int16(-4)))); fprintf('\n');
