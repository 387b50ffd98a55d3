% assignin/evalin across workspaces, evalc, whos, onCleanup.
ws_caller();
fprintf('in_base = %d\n', in_base);
evalin('base', 'in_base = in_base + 1;');
fprintf('in_base = %d\n', in_base);
t = evalc('disp(42)');
fprintf('[%s] %d\n', strtrim(t), numel(t));
t = evalc('x = 3');
fprintf('%d\n', contains(t, 'x ='));
clear
a = 1; b = 'hi'; c = int8([1 2 3]);
s = whos;
fprintf('%s:%s:%g ', s(1).name, s(1).class, s(1).bytes);
fprintf('%s:%s:%g ', s(2).name, s(2).class, s(2).bytes);
fprintf('%s:%s:%g\n', s(3).name, s(3).class, s(3).bytes);
fprintf('%d %d\n', s(3).size);
obj = onCleanup(@() fprintf('cleanup ran\n'));
fprintf('before clear\n');
clear obj
fprintf('after clear\n');
