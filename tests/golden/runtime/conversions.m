% class conversion builtins
fprintf('%d %d %d %d\n', int8(200), int8(-2.5), uint8(NaN), int8(2.5));
fprintf('%s\n', char(72, 105));
fprintf('%s|\n', char({'a', 'bcd'})');
fprintf('%d ', double('az')); fprintf('\n');
fprintf('%s %d\n', class(cast(3.7, 'int16')), cast(3.7, 'int16'));
fprintf('%d ', typecast(uint32(1), 'uint8')); fprintf('\n');
fprintf('%d %d %d\n', isa(int8(1), 'integer'), isa(1, 'numeric'), isa(single(1), 'float'));
fprintf('%d %d %d\n', isequal(1, true), isequal(NaN, NaN), isequaln(NaN, NaN));
fprintf('%d\n', isequal({1, 'a'}, {1, 'a'}));
try
    logical(NaN)
catch err
    fprintf('%s\n', err.message);
end
[r, k] = size(zeros(2, 3, 4));
fprintf('%d %d\n', r, k);
fprintf('%d %d\n', length(zeros(3, 7)), ndims(zeros(2, 3, 4)));
fprintf('%s\n', class(1:3 == 2));
fprintf('%d ', 0:0.25:1 == [0 0.25 0.5 0.75 1]); fprintf('\n');
fprintf('%s\n', class(int8(1):int8(3)));
fprintf('%s\n', 'a':'e');
