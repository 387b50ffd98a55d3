"""unique, union, intersect, setdiff, setxor, ismember."""

from __future__ import annotations

import math

import numpy as np
from builtins_a_support import call, ints, raises, row, same, text
from hypothesis import given, settings
from hypothesis import strategies as st

from matfuse.runtime.values import CellArray, char_array, to_str

small_rows = st.lists(st.integers(-3, 3).map(float), min_size=0, max_size=8)


def col(*values: float) -> np.ndarray:
    return np.array(values, dtype=np.float64).reshape(-1, 1)


def cellstr(*items: str) -> CellArray:
    return CellArray.from_list([char_array(s) for s in items])


def strings_of(c: CellArray) -> list[str]:
    return [to_str(v) for v in c.data.reshape(-1, order="F")]


def as_row(values: list[float]) -> np.ndarray:
    return np.array([values], dtype=np.float64).reshape(1, len(values))


@settings(max_examples=60, deadline=None)
@given(a=small_rows, b=small_rows)
def test_set_ops_match_python_sets(a: list[float], b: list[float]) -> None:
    if not a or not b:
        return
    A, B = as_row(a), as_row(b)
    for name, expected in (("union", set(a) | set(b)), ("intersect", set(a) & set(b)),
                           ("setdiff", set(a) - set(b)), ("setxor", set(a) ^ set(b))):
        got = np.asarray(call(name, A, B)).reshape(-1).tolist()
        assert got == sorted(expected), name
    c, ia, ic = call("unique", A, nargout=3)
    c = np.asarray(c).reshape(-1)
    assert c.tolist() == sorted(set(a))
    np.testing.assert_array_equal(c[np.asarray(ic).reshape(-1).astype(int) - 1], a)
    np.testing.assert_array_equal(np.asarray(A).reshape(-1)[np.asarray(ia).reshape(-1).astype(int) - 1], c)
    tf, loc = call("ismember", A, B, nargout=2)
    tf = np.asarray(tf).reshape(-1)
    loc = np.asarray(loc).reshape(-1)
    for k, v in enumerate(a):
        assert tf[k] == (v in b)
        assert loc[k] == (b.index(v) + 1 if v in b else 0)


def test_unique_examples() -> None:
    a = row(3, 1, math.nan, 1, 2, math.nan)
    c, ia, ic = call("unique", a, nargout=3)
    same(c, row(1, 2, 3, math.nan, math.nan))
    same(ia, col(2, 5, 1, 3, 6))
    same(ic, col(3, 1, 4, 1, 2, 5))
    c, ia, ic = call("unique", row(3, 1, 3, 2), text("stable"), nargout=3)
    same(c, row(3, 1, 2))
    same(ia, col(1, 2, 4))
    same(ic, col(1, 2, 1, 3))
    _, ia = call("unique", row(3, 1, 3), text("last"), nargout=2)
    same(ia, col(2, 3))
    same(call("unique", col(2, 1, 2)), col(1, 2))
    same(call("unique", np.array([[2.0, 1], [2, 1]])), col(1, 2))
    same(call("unique", text("hello")), text("ehlo"))
    same(call("unique", ints("int8", 5, 5, -1)), ints("int8", -1, 5))
    c, ia, ic = call("unique", np.array([[1.0, 2], [1, 2], [0, 1]]), text("rows"), nargout=3)
    same(c, np.array([[0.0, 1], [1, 2]]))
    same(ia, col(3, 1))
    same(ic, col(2, 2, 1))


def test_unique_cellstr() -> None:
    c, ia, ic = call("unique", cellstr("b", "a", "b"), nargout=3)
    assert strings_of(c) == ["a", "b"] and c.shape == (1, 2)
    same(ia, col(2, 1))
    same(ic, col(2, 1, 2))


def test_set_functions_with_indices() -> None:
    c, ia, ib = call("union", row(5, 1, 3), row(2, 1), nargout=3)
    same(c, row(1, 2, 3, 5))
    same(ia, col(2, 3, 1))
    same(ib, 1.0)
    c, ia, ib = call("intersect", row(5, 1, 3, 1), row(3, 1), nargout=3)
    same(c, row(1, 3))
    same(ia, col(2, 3))
    same(ib, col(2, 1))
    c, ia = call("setdiff", row(5, 1, 3, 1), row(3), nargout=2)
    same(c, row(1, 5))
    same(ia, col(2, 1))
    c, ia, ib = call("setxor", row(5, 1, 3), row(3, 7), nargout=3)
    same(c, row(1, 5, 7))
    same(ia, col(2, 1))
    same(ib, 2.0)
    same(call("union", row(3, 1), row(2, 1), text("stable")), row(3, 1, 2))
    same(call("union", col(3, 1), row(2)), col(1, 2, 3))
    same(call("intersect", np.array([[1.0, 2], [3, 4]]), np.array([[3.0, 4], [5, 6]]), text("rows")),
         row(3, 4))
    assert strings_of(call("union", cellstr("a", "c"), cellstr("b"))) == ["a", "b", "c"]
    assert strings_of(call("setdiff", cellstr("a", "c"), text("c"))) == ["a"]


def test_ismember() -> None:
    tf, loc = call("ismember", row(1, 2, math.nan), row(2, 1, 1, math.nan), nargout=2)
    same(tf, np.array([[True, True, False]]))
    same(loc, row(2, 1, 0))
    tf, loc = call("ismember", text("b"), cellstr("a", "b"), nargout=2)
    same(tf, True)
    same(loc, 2.0)
    same(call("ismember", cellstr("x", "a"), cellstr("a")), np.array([[False, True]]))
    same(call("ismember", np.array([[1.0, 2], [3, 4]]), np.array([[3.0, 4]]), text("rows")),
         np.array([[False], [True]]))
    same(call("ismember", 2.0, ints("int8", 1, 2)), True)
    raises("MATLAB:ismember:UnknownInput", "ismember", 1.0, 2.0, text("bogus"))
