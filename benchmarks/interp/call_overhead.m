% Calling a small function file in a loop (argument binding, nargin).
t = 0;
for k = 1:60000
    t = t + add_scaled(k, 2) + add_scaled(k);
end
fprintf('%d\n', t);
