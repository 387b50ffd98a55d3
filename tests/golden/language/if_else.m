for x = [-1 0 1 5]
    if x < 0
        fprintf('%d negative\n', x);
    elseif x == 0
        fprintf('%d zero\n', x);
    elseif x < 3
        fprintf('%d small\n', x);
    else
        fprintf('%d big\n', x);
    end
end
if [1 1 1], disp('all true'), end
if [1 0 1], disp('not shown'), else, disp('some false'), end
if [], disp('not shown'), else, disp('empty is false'), end
if 'a' && 1, disp('char ok'), end
