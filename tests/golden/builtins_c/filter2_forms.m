% filter2: correlation with H (conv2 of X with H rotated 180 degrees)
M = reshape(sin(1:30), 5, 6);
disp(sum(sum(filter2([1 2; 3 4], M))))
disp(size(filter2([1 2 1] / 4, M, 'valid')))
disp(filter2([0 1], [1 2 3; 4 5 6]))
disp(filter2([1 2], [1 2 3], 'full'))
try
    filter2([1 2], [1 2 3], 'middle')
catch err
    disp(err.message)
end
