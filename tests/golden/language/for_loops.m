for i = 1:3
    fprintf('%d ', i);
end
fprintf('\n');
for i = 10:-3:1
    fprintf('%d ', i);
end
fprintf('\n');
for v = [1 2; 3 4]
    fprintf('[%d %d] ', v(1), v(2));
end
fprintf('\n');
for c = {1, 'a'}
    fprintf('%s ', class(c));
end
fprintf('\n');
for k = []
    disp('never');
end
fprintf('%d %d\n', size(k));
for e = 0:0.25:1
    fprintf('%.2f ', e);
end
fprintf('\n');
n = 0;
for i = 1:5
    n = n + i;
    i = 100;
end
fprintf('%d %d\n', n, i);
for s = 'hi'
    fprintf('%s-', s);
end
fprintf('\n');
