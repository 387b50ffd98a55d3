% parfor without a pool: sliced, broadcast, reduction and temporary variables
n = 6;
a = zeros(1, n);
b = 10;
x = (1:n) .^ 2;
total = 0;
names = {};
lo = Inf;
parfor i = 1:n
    t = x(i) + b;
    a(i) = t;
    total = total + t;
    names = [names, {sprintf('it%d', i)}];
    lo = min(lo, t);
end
fprintf('%g ', a); fprintf('\n');
fprintf('total=%g lo=%g\n', total, lo);
fprintf('%s ', names{:}); fprintf('\n');
M = zeros(2, 3);
parfor (j = 1:3, 0)
    M(:, j) = [j; -j];
end
disp(M)
try
    parfor k = 1:4
        if k == 3
            error('demo:stop', 'stopped at %d', k);
        end
    end
catch err
    fprintf('%s\n', err.identifier);
end
