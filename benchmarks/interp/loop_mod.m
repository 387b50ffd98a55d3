% Scalar loop: 2e6 iterations of float arithmetic and a builtin call.
s = 0;
for i = 1:2e6
    s = s + mod(i, 7) * 0.5;
end
fprintf('%.1f\n', s);
