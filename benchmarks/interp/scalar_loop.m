% Scalar arithmetic loop with a builtin call.
s = 0;
for i = 1:400000
    s = s + mod(i, 7) * 0.5;
end
fprintf('%.1f\n', s);
