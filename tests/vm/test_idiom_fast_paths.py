"""The fast paths everyday idioms take give MATLAB's results: slices, masks,
appends, c{k}, logical arithmetic, switch on text, small sorts, mod."""

from __future__ import annotations

import pytest

from matfuse.errors import MatlabError

from vmutil import run


def lines(code: str) -> list[str]:
    return [line.strip() for line in run(code).strip().splitlines()]


@pytest.mark.parametrize("code, expected", [
    ("A = magic(4); disp(mat2str(A(:, 2))); disp(mat2str(A(3, :)))",
     ["[2;11;7;14]", "[9 7 6 12]"]),
    ("B = ['ab'; 'cd']; disp(B(:, 2)'); disp(B(2, :))", ["bd", "cd"]),
    ("A = zeros(0, 3); disp(mat2str(size(A(:, 2))))", ["[0 1]"]),
    ("v = [5 1 7 2]; disp(mat2str(v(v > 2))); w = v'; disp(mat2str(w(w > 2)))",
     ["[5 7]", "[5;7]"]),
    ("A = magic(3); disp(mat2str(A(A > 4))); disp(mat2str(size(A(A > 100))))",
     ["[8;5;9;6;7]", "[0 1]"]),
    ("v = [5 1 7 2]; b = v; b(b < 3) = 0; disp(mat2str(v)); disp(mat2str(b))",
     ["[5 1 7 2]", "[5 0 7 0]"]),
    ("x = []; x(end+1) = 4; disp(class(x)); x(end+1) = 5; disp(mat2str(x))",
     ["double", "[4 5]"]),
    ("x = zeros(2); try, x(end+1) = 1; catch e, disp(e.identifier); end",
     ["MATLAB:indexOutOfBounds"]),
    ("c = cell(2, 2); c{3} = 'x'; disp(c{1, 2}); d = c; d{3} = 'y'; disp(c{3})", ["x", "x"]),
    ("c = {}; c{end+1} = 1; c{end+1} = 'a'; disp(mat2str(size(c))); disp(class(c{2}))",
     ["[1 2]", "char"]),
    ("disp(true + true); disp(class(true * 2)); disp(class(true == 1)); disp(3 - (2 > 1))",
     ["2", "double", "logical", "2"]),
    ("s = 'blue'; switch s, case 'red', disp(1); case {'green', 'blue'}, disp(2); end",
     ["2"]),
    ("s = \"blue\"; switch s, case {'green', 'blue'}, disp(2); otherwise, disp(0); end",
     ["2"]),
    ("s = ['ab'; 'cd']; try, switch s, case 'ab', disp(1); otherwise, disp(0); end; "
     "catch e, disp('err'); end", ["0"]),
    ("[s, i] = sort([3 1 2 1], 'descend'); disp(mat2str(s)); disp(mat2str(i))",
     ["[3 2 1 1]", "[1 3 2 4]"]),
    ("[s, i] = sort([NaN 2 1]); disp(mat2str(s)); disp(mat2str(i))",
     ["[1 2 NaN]", "[3 2 1]"]),
    ("disp(mat2str(mod([-7 7 5.5 -0.5], 3))); disp(mat2str(rem([-7 7 -0.5], 3)))",
     ["[2 1 2.5 2.5]", "[-1 1 -0.5]"]),
    ("disp(strcmp('abc', 'abc')); disp(strcmp('abc', 'abd')); disp(strcmp('', zeros(1, 0)))",
     ["1", "0", "0"]),
    ("disp(strcmp('', char(zeros(1, 0)))); disp(mat2str(strcmp('a', {'a', 'b'})))",
     ["1", "[true false]"]),
    ("disp(mat2str(strcmp({'a', 5; \"b\", 'b'}, 'b'))); disp(mat2str(strcmp({'x'}, 'x')))",
     ["[false false;true true]", "true"]),
    ("disp(mat2str(mod([Inf -Inf NaN 4], 3))); disp(mat2str(rem([-4 4], -3)))",
     ["[NaN NaN NaN 1]", "[-1 1]"]),
    ("disp(mat2str(sum([1 2; 3 4]))); disp(mat2str(sum([1; 2; 3]))); "
     "disp(sum([true true false])); disp(class(sum([true false])))",
     ["[4 6]", "6", "2", "double"]),
    ("disp(mat2str(sum(zeros(0, 3)))); disp(sum([]))", ["[0 0 0]", "0"]),
    ("M = zeros(0, 3); for k = 1:5, M(end+1, :) = [k 2*k 3]; end; B = M; "
     "M(end+1, :) = [9 9 9]; B(end+1, :) = [8 8 8]; M(2, 3) = -1; "
     "disp(mat2str(B)); disp(mat2str(M))",
     ["[1 2 3;2 4 3;3 6 3;4 8 3;5 10 3;8 8 8]",
      "[1 2 3;2 4 -1;3 6 3;4 8 3;5 10 3;9 9 9]"]),
    ("M = [1 2]; M(end+1, :) = [3 4 5];", None),
    ("x = []; x(end+1) = 5; disp(class(x)); x(end+1) = 6; y = x; x(end+1) = 7; "
     "y(end+1) = 8; disp(mat2str(x)); disp(mat2str(y))", ["double", "[5 6 7]", "[5 6 8]"]),
    ("z = zeros(3, 1); z(end+1) = 4; z(end+1) = 5; disp(mat2str(z)); "
     "e = zeros(0, 3); e(end+1) = 2; disp(mat2str(size(e)))", ["[0;0;0;4;5]", "[1 1]"]),
    ("q = int8([1 2]); q(end+1) = 300; disp(mat2str(q)); t = 1:3; t(end+1) = true; "
     "disp(class(t)); c = 'ab'; c(end+1) = 'c'; disp(c); disp(class(q))",
     ["[1 2 127]", "double", "abc", "int8"]),
    ("disp(mat2str(find([0 1 NaN 0 2]))); disp(mat2str(find([0; 3; 0]))); "
     "disp(mat2str(find([1 0; 0 1]))); disp(mat2str(find([true false true], 1)))",
     ["[2 3 5]", "2", "[1;4]", "1"]),
    ("for k = 1:2, v = (1:4); v(k) = 0; disp(mat2str(v)); end; disp(mat2str(-1:2)); "
     "disp(mat2str(size(3:2))); disp(class(2:2)); w = 1:4; w(1) = 9; disp(mat2str(1:4))",
     ["[0 2 3 4]", "[1 0 3 4]", "[-1 0 1 2]", "[1 0]", "double", "[1 2 3 4]"]),
    ("t = {{'42', 'x'}, 'b'}; disp(t{1}{1}); disp(t{1}{2}); m = {1, 2; 3, 4}; disp(m{2, 1}); "
     "disp(numel(t)); s = [\"ab\", \"cd\"]; disp(s{2}); disp(numel(struct('a', {1, 2, 3})))",
     ["42", "x", "3", "2", "cd", "3"]),
    ("t = {1, 2}; try, q = t{3}; catch e, disp(e.identifier); end; "
     "try, q = nothere{1}; catch e, disp(e.identifier); end; "
     "z = 5; try, q = z{1}; catch e, disp(e.identifier); end; "
     "c = cell(1, 0); try, q = c{[]}; catch e, disp(e.message); end",
     ["MATLAB:badsubscript", "MATLAB:UndefinedFunction", "MATLAB:cellRefFromNonCell",
      "Brace indexing produced no results."]),
    ("disp(mat2str(find([0 0 3 1], 1))); disp(mat2str(size(find([0 0], 1)))); "
     "disp(mat2str(find([0; 2; 2], 1)))", ["3", "[1 0]", "2"]),
    ("disp(mat2str(size(find([0 0])))); disp(mat2str(size(find([0; 0])))); "
     "disp(mat2str(find([4 0 5 6], 2)))", ["[1 0]", "[0 1]", "[1 3]"]),
    ("s = struct('v', {1, 2, 3}); k = 2; disp(s(k).v); k = 3; s(k).v = 9; disp(s(k).v); "
     "k = 1.5; try, disp(s(k).v); catch e, disp(e.identifier); end; "
     "k = 1; try, disp(s(k).w); catch e, disp(e.identifier); end",
     ["2", "9", "MATLAB:badsubscript", "MATLAB:nonExistentField"]),
    ("c = {}; c{end+1} = 1; c{end+1} = 'a'; d = c; c{end+1} = [1 2]; d{end+1} = {3}; "
     "disp(mat2str(size(c))); disp(class(d{3})); disp(class(c{3})); disp(numel(d))",
     ["[1 3]", "cell", "double", "3"]),
    ("e = cell(3, 1); e{end+1} = 5; disp(mat2str(size(e))); z = cell(0, 1); z{end+1} = 2; "
     "disp(mat2str(size(z))); m = cell(2); try, m{end+1} = 1; catch err, disp(err.identifier); end",
     ["[4 1]", "[1 1]", "MATLAB:indexOutOfBounds"]),
    ("s = struct('a', {}); for k = 1:5, s(k).a = k; s(k).b = -k; end; t = s; s(6).a = 60; "
     "t(6).b = 7; disp(mat2str([s.a])); disp(mat2str(size(t))); disp(isempty(s(6).b)); "
     "disp(isempty(t(6).a)); u = struct(); u(2).x = 1; disp(mat2str(size(u))); "
     "v = struct('q', {1; 2}); v(3).q = 3; disp(mat2str(size(v)))",
     ["[1 2 3 4 5 60]", "[1 6]", "1", "1", "[1 2]", "[3 1]"]),
    ("c = struct('id', 2, 'hits', 0); disp(mat2str(size(c))); disp(c.id); "
     "d = struct('a', {1, 2}, 'b', 3); disp(mat2str(size(d))); disp(d(2).b)",
     ["[1 1]", "2", "[1 2]", "3"]),
    ("[s, i] = sort([4; 2], 'descend'); disp(mat2str([s i])); disp(mat2str(sort([2 0 -1])))",
     ["[4 1;2 2]", "[-1 0 2]"]),
])
def test_fast_path_results(code: str, expected: list[str] | None) -> None:
    if expected is None:
        with pytest.raises(MatlabError) as info:
            run(code)
        assert info.value.identifier == "MATLAB:subsassigndimmismatch"
        return
    assert lines(code) == expected
