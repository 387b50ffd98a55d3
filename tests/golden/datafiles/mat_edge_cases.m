% save/load edge cases in v7 and v7.3: structs without fields, empty struct
% arrays, N-D cells and struct arrays, int64 extremes, single complex,
% N-D logicals, empty and 0x3 string arrays, 1x0 single.
a = struct(); b = struct('q', {}); c = cell(2,2,2); c{2,2,2} = 'x'; d = repmat(struct('f', 1), [2 1 2]);
e = int64(-9223372036854775807); f = single(1+2i); g = true(2,2,2); h = "";
k = ["a" "b" "c"]; k(:, :) = []; k = reshape(k, 0, 3); m = zeros(1,0,'single');
for v = {'-v7', '-v7.3'}
  fn = [tempname '.mat'];
  save(fn, 'a','b','c','d','e','f','g','h','k','m', v{1});
  S = load(fn);
  disp(v{1})
  disp([isequal(size(S.a), [1 1]), isempty(fieldnames(S.a)), isstruct(S.b), isequal(size(S.b), [0 0]), isequal(size(S.c), [2 2 2]), strcmp(S.c{2,2,2}, 'x')])
  disp([isequal(size(S.d), [2 1 2]), S.e == e, strcmp(class(S.e), 'int64'), isequal(S.f, f), strcmp(class(S.f), 'single')])
  disp([isequal(S.g, g), strcmp(class(S.h), 'string'), S.h == "", isequal(size(S.k), [0 3]), strcmp(class(S.k), 'string')])
  disp([isequal(size(S.m), [1 0]), strcmp(class(S.m), 'single')])
  delete(fn);
end
n = char(zeros(1,0));
fn = [tempname '.mat'];
save(fn, 'n', '-v7.3');
S = load(fn);
disp(size(S.n))
delete(fn);
