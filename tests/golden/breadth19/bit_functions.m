% bitget, bitset, bitshift, bitand/bitor/bitxor, bitcmp: integer classes,
% doubles, and doubles read as an assumed integer type.
disp(bitget(uint8(10), 1:4))
disp(class(bitget(uint8(10), 1)))
disp(bitget(-1, 8, 'int8'))
disp(bitset(uint8(10), 1))
disp(bitset(10, 4, 0))
disp(bitset(0, 8, 'uint8'))
disp(bitset(0, 8, 1, 'int8'))
disp(bitset(uint8([0 0]), [1 2], [1 1]))
disp(bitshift(1, 3))
disp(bitshift(16, -2))
disp(bitshift(uint8(255), 1))
disp(bitshift(int8(-1), 1))
disp(bitshift(uint8([1 2 4]), [1 2 3]))
disp(bitshift(255, 1, 'uint8'))
disp(bitshift(-8, -1, 'int8'))
disp([bitand(12, 10) bitor(12, 10) bitxor(12, 10)])
disp(bitor(uint8(12), uint8(10)))
disp(bitand(-1, 5, 'int8'))
disp(bitor(200, 100, 'uint8'))
disp(bitcmp(uint8(0)))
disp(bitcmp(0, 'uint8'))
try
  bitshift(300, 1, 'uint8');
catch err
  disp(err.message)
end
