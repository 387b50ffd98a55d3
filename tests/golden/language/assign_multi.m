[m, i] = max([3 9 2]);
fprintf('%d %d\n', m, i);
[~, j] = min([4 1 7]);
fprintf('%d\n', j);
[a, b] = deal(10, 20);
fprintf('%d %d\n', a, b);
[r, c] = size(zeros(3, 5));
fprintf('%d %d\n', r, c);
[q1, q2, q3] = three();
fprintf('%d %d %d\n', q1, q2, q3);
[p1, ~, p3] = three();
fprintf('%d %d\n', p1, p3);
function [a, b, c] = three()
    a = 1; b = 2; c = 3;
end
