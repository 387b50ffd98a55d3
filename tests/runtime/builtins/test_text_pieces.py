"""split (several texts, dim, the delimiters output) and compose's output
class (cell for a char format, string for a string format)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from matfuse.errors import MatlabError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "vm"))
from vmutil import run  # noqa: E402


def lines(code: str) -> list[str]:
    return [line.strip() for line in run(code).strip().splitlines() if line.strip()]


def test_split_of_several_texts_goes_along_a_new_dimension() -> None:
    assert lines("s = split({'a b'; 'c d'}); disp(size(s)); disp(s{2, 1})") == ["2     2", "c"]
    assert lines("s = split({'a b', 'c d'}); disp(size(s)); disp(s{1, 2, 2})") \
        == ["1     2     2", "d"]
    assert lines("s = split(\"a\"); disp(size(s))") == ["1     1"]
    assert lines("s = split({'a b'; 'c d'}, ' ', 2); disp(size(s))") == ["2     2"]


def test_split_returns_the_delimiters_found() -> None:
    assert lines("[p, d] = split('a, b,c', {', ', ','}); disp(size(p)); disp(d{1}); "
                 "disp(numel(d{2}))") == ["3     1", ",", "1"]


def test_split_needs_equal_piece_counts() -> None:
    with pytest.raises(MatlabError) as info:
        run("split({'a b c'; 'd e'})")
    assert info.value.identifier == "MATLAB:split:UnequalNumberOfSubstrings"


def test_compose_output_class_follows_the_format() -> None:
    assert lines("c = compose('%d', [1 2]); disp(class(c)); disp(size(c))") \
        == ["cell", "1     2"]
    assert lines("c = compose(\"%d\", [1 2]); disp(class(c))") == ["string"]
    assert lines("c = compose('a\\tb'); disp(class(c)); disp(double(c{1}(2)))") \
        == ["cell", "9"]
