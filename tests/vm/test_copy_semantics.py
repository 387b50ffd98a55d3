"""MATLAB's copy semantics survive in-place updates: an assignment changes
only the variable assigned, whatever other variables, cells, structs,
function arguments or captured workspaces share its value."""

from __future__ import annotations

import pytest

from vmutil import run


def values(code: str) -> list[str]:
    """The lines ``code`` prints (each check prints one ``mat2str``/``disp``)."""
    return [line.strip() for line in run(code).strip().splitlines()]


ALIASING_CASES = [
    # numeric, char, logical
    ("a = [1 2 3]; b = a; b(1) = 5; disp(mat2str(a)); disp(mat2str(b))",
     ["[1 2 3]", "[5 2 3]"]),
    ("a = [1 2 3]; b = a; b(end+1) = 4; disp(mat2str(a)); disp(mat2str(b))",
     ["[1 2 3]", "[1 2 3 4]"]),
    ("a = []; for k = 1:5, a(end+1) = k; if k == 3, b = a; end, end; "
     "disp(mat2str(a)); disp(mat2str(b))", ["[1 2 3 4 5]", "[1 2 3]"]),
    ("a = 'abc'; b = a; b(2) = 'X'; disp(a); disp(b)", ["abc", "aXc"]),
    ("s = ''; for k = 1:4, s = [s 'ab']; if k == 2, t = s; end, end; disp(s); disp(t)",
     ["abababab", "abab"]),
    ("a = true(1, 3); b = a; b(2) = false; disp(mat2str(a)); disp(mat2str(b))",
     ["[true true true]", "[true false true]"]),
    ("a = zeros(2); b = a; b(2, 2) = 7; disp(mat2str(a)); disp(mat2str(b))",
     ["[0 0;0 0]", "[0 0;0 7]"]),
    # cells
    ("c = {1, 2}; d = c; d{1} = 9; disp(mat2str(c{1})); disp(mat2str(d{1}))", ["1", "9"]),
    ("c = {}; for k = 1:6, c{end+1} = k; if k == 2, d = c; end, end; "
     "disp(numel(c)); disp(numel(d))", ["6", "2"]),
    ("x = [1 2 3]; c = {x}; c{1}(2) = 0; disp(mat2str(x)); disp(mat2str(c{1}))",
     ["[1 2 3]", "[1 0 3]"]),
    ("x = [1 2 3]; c = {x}; x(2) = 0; disp(mat2str(x)); disp(mat2str(c{1}))",
     ["[1 0 3]", "[1 2 3]"]),
    ("c = {[1 2]}; d = c; d{1}(1) = 5; disp(mat2str(c{1})); disp(mat2str(d{1}))",
     ["[1 2]", "[5 2]"]),
    ("c = {{1, 2}}; inner = c{1}; c{1}{2} = 7; disp(mat2str(inner{2})); disp(mat2str(c{1}{2}))",
     ["2", "7"]),
    # structs
    ("s.a = 1; t = s; t.a = 2; disp(s.a); disp(t.a)", ["1", "2"]),
    ("s.a = 1; t = s; t.b = 2; disp(isfield(s, 'b')); disp(isfield(t, 'b'))", ["0", "1"]),
    ("s.v = [1 2]; t = s; t.v(1) = 9; disp(mat2str(s.v)); disp(mat2str(t.v))",
     ["[1 2]", "[9 2]"]),
    ("s(1).a = 1; s(2).a = 2; e = s(2); s(2).a = 5; disp(e.a); disp(s(2).a)", ["2", "5"]),
    ("s(1).a = 1; s(2).a = 2; e = s(2); s(2).b = 5; disp(isfield(e, 'b')); "
     "disp(mat2str(s(1).b))", ["0", "[]"]),
    ("s(1).a = 1; s(2).a = 2; t = s; t(1).a = 0; disp(s(1).a); disp(t(1).a)", ["1", "0"]),
    ("s = struct('a', {}); for k = 1:4, s(k).a = k; if k == 2, t = s; end, end; "
     "disp(numel(s)); disp(numel(t))", ["4", "2"]),
    ("s.c = {1, [1 2 3]}; t = s; s.c{2}(3) = 0; disp(mat2str(t.c{2})); disp(mat2str(s.c{2}))",
     ["[1 2 3]", "[1 2 0]"]),
    ("s(2).c = {1, [1 2]}; t = s(2).c; s(2).c{2}(1) = 7; disp(mat2str(t{2})); "
     "disp(mat2str(s(2).c{2}))", ["[1 2]", "[7 2]"]),
    ("v = [4 5]; s.x = v; s.x(1) = 0; disp(mat2str(v)); disp(mat2str(s.x))",
     ["[4 5]", "[0 5]"]),
    ("s.in.v = 1; t = s.in; s.in.v = 2; disp(t.v); disp(s.in.v)", ["1", "2"]),
    ("r = struct(); for k = 1:3, r.(sprintf('f%d', k)) = k; if k == 1, q = r; end, end; "
     "disp(numel(fieldnames(r))); disp(numel(fieldnames(q)))", ["3", "1"]),
    # handles' captured values
    ("a = [1 2 3]; f = @() a; a(1) = 9; disp(mat2str(f())); disp(mat2str(a))",
     ["[1 2 3]", "[9 2 3]"]),
    ("c = {1}; f = @() numel(c); c{end+1} = 2; disp(f()); disp(numel(c))", ["1", "2"]),
    # loop variables over cells share their values
    ("c = {[1 2]}; for e = c, x = e{1}; end; c{1}(1) = 5; disp(mat2str(x)); "
     "disp(mat2str(c{1}))", ["[1 2]", "[5 2]"]),
]


@pytest.mark.parametrize("code, expected", ALIASING_CASES)
def test_assignment_changes_only_the_assigned_variable(code: str, expected: list[str]) -> None:
    assert values(code) == expected


FUNCTION_CASES = [
    ("function r = f(x)\nx(1) = 0; r = x;\nend",
     "a = [1 2 3]; b = f(a); disp(mat2str(a)); disp(mat2str(b))", ["[1 2 3]", "[0 2 3]"]),
    ("function r = f(c)\nc{end+1} = 'z'; r = c;\nend",
     "a = {'x'}; b = f(a); disp(numel(a)); disp(numel(b))", ["1", "2"]),
    ("function r = f(s)\ns(2).a = 5; s(1).b = 1; r = s;\nend",
     "t.a = 1; u = f(t); disp(numel(t)); disp(isfield(t, 'b')); disp(numel(u))",
     ["1", "0", "2"]),
    ("function r = f(s)\ns.in.v(2) = 9; r = s;\nend",
     "t.in.v = [1 1]; u = f(t); disp(mat2str(t.in.v)); disp(mat2str(u.in.v))",
     ["[1 1]", "[1 9]"]),
]


@pytest.mark.parametrize("function, code, expected", FUNCTION_CASES)
def test_function_arguments_are_values(tmp_path, function: str, code: str,
                                       expected: list[str]) -> None:
    (tmp_path / "f.m").write_text(function + "\n")
    script = tmp_path / "main.m"
    script.write_text(code + "\n")
    assert values(f"run('{script}')") == expected


def test_nested_in_place_updates_reach_the_innermost_value() -> None:
    assert values(
        "s = struct('c', {}); s(3).c = {}; s(3).c{2} = zeros(1, 3); "
        "for i = 1:3, s(3).c{2}(i) = i; end; disp(mat2str(s(3).c{2})); disp(size(s, 2))"
    ) == ["[1 2 3]", "3"]


def test_growth_keeps_fill_values() -> None:
    assert values("x = []; x(3) = 1; x(end+2) = 2; disp(mat2str(x))") == ["[0 0 1 0 2]"]
    assert values("c = {}; c{3} = 1; disp(mat2str(c{2})); disp(size(c, 2))") == ["[]", "3"]
    assert values("s = struct('a', {}); s(3).a = 1; disp(mat2str(s(2).a))") == ["[]"]
    assert values("x = (1:3)'; x(end+1) = 4; disp(mat2str(x))") == ["[1;2;3;4]"]
