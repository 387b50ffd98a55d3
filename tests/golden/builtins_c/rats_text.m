% rats: 13 characters per element after a space, fractions split at the slash
s = rats(pi)
disp(size(s))
disp(rats([0.5 0.25; 1/3 2]))
disp(['[' rats(-0.75) ']'])
disp(['[' rats(pi, 5) ']'])
disp(['[' rats(7) ']'])
[n, d] = rat(0.75);
disp([n d])
