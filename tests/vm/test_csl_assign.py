"""Comma-separated-list targets in multiple assignment (matfuse.vm._csl_assign)."""

from __future__ import annotations

import pytest

from matfuse.errors import MatlabError
from vmutil import run


@pytest.mark.parametrize("code,expected", [
    ("c = cell(1,3); [c{:}] = deal(0); disp(c)", "    {[0]}    {[0]}    {[0]}\n"),
    ("s = struct('v', {1, 2}); [s.v] = deal(9); disp([s.v])", "     9     9\n"),
    ("q = {1, 2}; [a, b] = q{:}; disp([a b])", "     1     2\n"),
    ("t = struct('f', {1, 2, 3}); [t(2:3).f] = deal(5, 6); disp([t.f])", "     1     5     6\n"),
    ("[d{1:2}] = deal('x', 'y'); disp([d{:}])", "xy\n"),
    ("c = {1, 2, 3}; [x, c{2:3}] = deal(7, 8, 9); disp([x c{:}])", "     7     1     8     9\n"),
    ("c = cell(2, 1); [c{:}] = size(ones(3, 4)); disp([c{:}])", "     3     4\n"),
    ("[s.a, s.b] = deal(1, 2); disp([s.a s.b])", "     1     2\n"),
    ("s = struct('k', {1, 2}); f = 'k'; [s.(f)] = deal(3); disp([s.k])", "     3     3\n"),
])
def test_csl_targets(code: str, expected: str) -> None:
    assert run(code) == expected


def test_too_few_values_is_matlab_error() -> None:
    with pytest.raises(MatlabError) as info:
        run("c = cell(1, 3); q = {1, 2}; [c{:}] = q{:};")
    assert info.value.identifier == "MATLAB:needMoreRhsOutputs"


def test_display_of_csl_assignment_names_the_variable() -> None:
    assert run("[c{1:2}] = deal(1, 2)") == "c =\n\n  1×2 cell array\n\n    {[1]}    {[2]}\n\n"
