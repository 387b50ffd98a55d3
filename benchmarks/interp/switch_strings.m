% switch on strings in a loop.
names = {'red', 'green', 'blue', 'cyan', 'black'};
score = 0;
for k = 1:90000
    switch names{mod(k, 5) + 1}
        case 'red'
            score = score + 1;
        case {'green', 'blue'}
            score = score + 2;
        case 'cyan'
            score = score + 3;
        otherwise
            score = score - 1;
    end
end
fprintf('%d\n', score);
