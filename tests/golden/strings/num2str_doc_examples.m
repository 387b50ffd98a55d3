% num2str, int2str and mat2str: the examples of MATLAB's documentation
% (expected text as documented), and the spacing of whole-number matrices.
fprintf('[%s]\n', num2str(pi));
fprintf('[%s]\n', num2str(eps));
% num2str(A,3) of rng('default') randn(2,2), values as printed by MATLAB
A = [0.5377 -2.2588; 1.8339 0.8622];
s = num2str(A, 3);
disp(size(s))
fprintf('[%s]\n', s(1,:), s(2,:));
fprintf('[%s]\n', num2str(pi, '%.2f'));
% a format with a field width: num2str removes the leading spaces
fprintf('[%s]\n', num2str(1.345, '%10.3f'));
fprintf('[%s]\n', num2str(123.456, '%10.2f'));
% '%10.5e\n' applied to each row: rows keep their newlines (2x35)
B = [9500.34 6068.43 8912.99; 2311.15 4859.82 7620.21];
s = num2str(B, '%10.5e\n');
disp(size(s))
fprintf('[%s]\n', s(1,1:11), s(2,1:11));
disp(double(s(1,12)))
% whole numbers: a field of the widest number's digits plus 2
fprintf('[%s]\n', num2str([1 2 3]));
fprintf('[%s]\n', num2str([1 10 100]));
fprintf('[%s]\n', num2str([-1 0 1]));
fprintf('[%s]\n', num2str([Inf NaN -Inf]));
fprintf('[%s]\n', num2str(1e15));
fprintf('[%s]\n', num2str(1e16));
fprintf('[%s]\n', num2str(-0));
fprintf('[%s]\n', num2str(int8([1 -2 3])));
fprintf('[%s]\n', num2str(int64(-flintmax) - 1, 3));
fprintf('[%s]\n', num2str(1.234 + 27.3i));
fprintf('[%s]\n', num2str([1+2i 3-4i]));
% int2str
fprintf('[%s]\n', int2str(256));
fprintf('[%s]\n', int2str(3.14159));
s = int2str([5 10 20; 100 200 400]);
disp(size(s))
fprintf('[%s]\n', s(1,:), s(2,:));
% mat2str
fprintf('[%s]\n', mat2str([3.85 2.91; 7.74 8.99]));
fprintf('[%s]\n', mat2str([3.1416 2.7183], 3));
fprintf('[%s]\n', mat2str(uint16([256 512]), 'class'));
fprintf('[%s]\n', mat2str(logical([1 0; 0 1])));
fprintf('[%s]\n', mat2str([1;2;3]));
