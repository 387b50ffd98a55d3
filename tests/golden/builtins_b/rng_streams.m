% MATLAB's default Mersenne Twister stream and seeding.
rng(0);
fprintf('%.4f\n', rand(1, 4));
rng('default');
fprintf('%d ', randi(10, 1, 5));
fprintf('\n');
rng(1);
fprintf('%.15f\n', rand);
rng(42);
fprintf('%.16f\n', rand);
rng(0);
m = rand(2, 2);
fprintf('%.4f %.4f\n', m');
s = rng;
a = rand(1, 3);
rng(s);
b = rand(1, 3);
fprintf('%d\n', isequal(a, b));
fprintf('%s %d\n', s.Type, s.Seed);
rng default
fprintf('%d ', randperm(8));
fprintf('\n');
rng(5, 'twister');
p = randperm(6);
fprintf('%d\n', isequal(sort(p), 1:6));
x = randn(1000, 1);
fprintf('%d %d\n', abs(mean(x)) < 0.2, abs(std(x) - 1) < 0.2);
