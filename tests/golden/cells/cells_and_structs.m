% cellfun, arrayfun, structfun and struct utilities.
c = {1, [1 2 3], 'text'};
n = cellfun(@numel, c)
e = cellfun('isempty', {[], 1, ''})
up = cellfun(@upper, {'ab', 'cd'}, 'UniformOutput', false)
sq = arrayfun(@(x) x^2, [1 2 3])
parts = arrayfun(@(k) 1:k, 1:3, 'UniformOutput', false)
s = struct('name', 'Ann', 'age', 30);
fn = fieldnames(s)
has = isfield(s, {'age', 'zip'})
s2 = rmfield(s, 'age')
s3 = setfield(s, 'zip', '12345');
disp(getfield(s3, 'zip'))
lens = structfun(@numel, s)
o = orderfields(s)
arr = struct('v', {10, 20, 30});
vals = arrayfun(@(e) e.v * 2, arr)
m = cell2mat({[1 2], [3]; [4 5], [6]})
nc = num2cell([1 2])
[p, q] = deal(7, 'seven')
emptyc = cell(2, 2)
try
    cellfun(@(x) [x x], {1, 2});
catch err
    disp(err.identifier)
end
try
    getfield(s, 'missing');
catch err
    disp(err.message)
end
