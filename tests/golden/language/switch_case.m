for v = {1, 2, 5, 'abc', 'ABC', 'x'}
    val = v{1};
    switch val
        case 1
            disp('one');
        case {2, 3}
            disp('two or three');
        case 'abc'
            disp('abc lower');
        case {'x', 'y'}
            disp('x or y');
        otherwise
            disp('other');
    end
end
switch 'hello'
    case 'HELLO'
        disp('wrong');
    case 'hello'
        disp('right');
end
