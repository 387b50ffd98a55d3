eval('a = 3;');
fprintf('%d\n', a);
b = eval('a * 2');
fprintf('%d\n', b);
eval('error(''boom'')', 'disp(''caught by eval'')');
fprintf('%d %d %d %d\n', exist('a'), exist('sin'), exist('no_such_thing_q'), exist('a', 'var'));
clear a
fprintf('%d\n', exist('a'));
fprintf('%d %d %d\n', isvarname('abc'), isvarname('1abc'), isvarname('for'));
x1 = 1; x2 = 2; y1 = 3;
clear x*
fprintf('%d %d %d\n', exist('x1'), exist('x2'), exist('y1'));
clear
fprintf('%d\n', exist('y1'));
