% strcmp of a string against a cell of strings, in a loop.
words = {'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'};
hits = 0;
for k = 1:60000
    w = words{mod(k, 8) + 1};
    hits = hits + sum(strcmp(w, words)) + strcmp(w, 'gamma');
end
fprintf('%d\n', hits);
