% c{k} reads: whole-number subscripts in matrix and N-D cells, logical, errors.
c = {1, 'a'; [2 3], {4}};
disp(c{2}); disp(c{4}); disp(class(c{4}));
try, x = c{5}; catch e, disp(e.identifier); end
try, x = c{0}; catch e, disp(e.identifier); end
try, x = c{1.5}; catch e, disp(e.identifier); end
d = cell(1, 0); try, x = d{1}; catch e, disp(e.identifier); end
e3 = cell(2,2,2); e3{7} = 5; disp(e3{7});
x = c{true}; disp(x)
z = {}; try, y = z{1}; catch e, disp(e.identifier); end
