assert(true);
assert(all([1 2 3] > 0), 'not shown');
try
    assert(false);
catch err
    fprintf('%s | %s\n', err.identifier, err.message);
end
try
    assert(1 == 2, 'Values differ: %d vs %d', 1, 2);
catch err
    fprintf('%s\n', err.message);
end
try
    assert(false, 'my:assert', 'custom %s', 'id');
catch err
    fprintf('%s | %s\n', err.identifier, err.message);
end
warning('off', 'all');
warning('This goes nowhere');
disp('done');
