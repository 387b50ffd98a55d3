global G
G = 5;
bump();
bump();
fprintf('%d\n', G);
for k = 1:3
    fprintf('%d ', counter());
end
fprintf('\n');
function bump()
    global G
    G = G + 1;
end
function n = counter()
    persistent calls
    if isempty(calls)
        calls = 0;
    end
    calls = calls + 1;
    n = calls;
end
