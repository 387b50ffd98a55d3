% movmax/movmin/movmedian/movprod/movstd/movvar, window forms and endpoints
% (values from MATLAB's documentation examples where it gives them)
A = [4 8 NaN -1 -2 -3 NaN 3 4 5];
disp(movmax(A, 3))
disp(movmax(A, 3, 'includenan'))
disp(movmin([4 8 6 -1 -2 -3 -1 3 4 5], [2 0]))
disp(movmax([4 8 6; -1 -2 -3; -1 3 4], 3, 2))
disp(movmedian([4 1 3 2 5], 4))
disp(movmedian([4 NaN 3 2 5], 3))
disp(movmedian([4 NaN 3 2 5], 3, 'omitnan'))
disp(movprod([1 2 3 4], 2, 'Endpoints', 'discard'))
disp(movstd([1 2 4 7 11], 3))
disp(movstd([1 2 4 7 11], [1 0], 1))
disp(movvar([1 2 4 7], 3, 0, 2))
disp(movmin([3 1 2], 3, 'Endpoints', 'fill'))
disp(movmean([1 2 3 4], 3, 'Endpoints', 0))
disp(movsum([1 2 3], 3, 'Endpoints', 10))
disp(movmean([1 2 3 4], 3, 'Endpoints', 'fill'))
disp(class(movmax(single([1 2 3]), 2)))
disp(movmax([1; 5; 2; 8], 2))
try
    movmax([1 2 3], 0)
catch err
    disp(err.identifier)
end
try
    movstd([1 2 3], 3, 2)
catch err
    disp(err.identifier)
end
