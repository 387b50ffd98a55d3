"""Construction: fills, identity, limits, ranges, grids, replication, magic."""

from __future__ import annotations

import math

import numpy as np
import pytest
from builtins_a_support import call, ints, raises, row, same, text
from hypothesis import given, settings
from hypothesis import strategies as st

from matfuse.runtime.values import CellArray, StructArray

EMPTY = np.zeros((0, 0))


def test_fills_and_sizes() -> None:
    same(call("zeros"), 0.0)
    same(call("zeros", 2.0), np.zeros((2, 2)))
    same(call("ones", 2.0, 3.0), np.ones((2, 3)))
    same(call("zeros", row(2, 3, 1)), np.zeros((2, 3)))
    assert call("zeros", 2.0, 3.0, 4.0).shape == (2, 3, 4)
    same(call("zeros", -1.0, 3.0), np.zeros((0, 3)))
    same(call("ones", 2.0, 1.0, text("int8")), np.ones((2, 1), dtype=np.int8))
    same(call("zeros", 1.0, 2.0, text("single")), np.zeros((1, 2), dtype=np.float32))
    same(call("nan", 1.0, 2.0), row(math.nan, math.nan))
    same(call("NaN"), math.nan)
    same(call("Inf", 2.0, 1.0, text("single")), np.full((2, 1), np.inf, dtype=np.float32))
    same(call("pi"), math.pi)
    same(call("true", 1.0, 2.0), np.array([[True, True]]))
    same(call("false"), False)
    raises("MATLAB:NaN:invalidInputClass", "nan", 2.0, text("int8"))
    raises("MATLAB:NonIntegerInput", "zeros", 1.5)


def test_like_prototypes() -> None:
    same(call("zeros", 1.0, 2.0, text("like"), ints("uint16", 1)), np.zeros((1, 2), dtype=np.uint16))
    z = call("ones", 2.0, text("like"), np.array([[1j]]))
    assert z.dtype == np.complex128 and z.shape == (2, 2)
    same(call("eye", 2.0, text("like"), np.array([[1]], dtype=np.float32)), np.eye(2, dtype=np.float32))


def test_eye() -> None:
    same(call("eye", 2.0), np.eye(2))
    same(call("eye", 2.0, 3.0), np.eye(2, 3))
    same(call("eye", 1.0), 1.0)
    same(call("eye", row(3, 2), text("int32")), np.eye(3, 2, dtype=np.int32))


def test_limits() -> None:
    same(call("eps"), 2.0 ** -52)
    same(call("eps", 1.0), 2.0 ** -52)
    same(call("eps", 1000.0), 2.0 ** -43)
    same(call("eps", 0.0), 5e-324)
    same(call("eps", math.inf), math.nan)
    same(call("eps", text("single")), np.array([[2.0 ** -23]], dtype=np.float32))
    same(call("eps", np.array([[1]], dtype=np.float32)), np.array([[2.0 ** -23]], dtype=np.float32))
    same(call("realmax"), np.finfo(np.float64).max.item())
    same(call("realmin", text("single")), np.array([[np.finfo(np.float32).tiny]], dtype=np.float32))
    same(call("flintmax"), 2.0 ** 53)
    same(call("intmax"), np.array([[2 ** 31 - 1]], dtype=np.int32))
    same(call("intmin", text("int8")), np.array([[-128]], dtype=np.int8))
    same(call("intmax", text("uint64")), np.array([[2 ** 64 - 1]], dtype=np.uint64))
    raises("MATLAB:intmax:invalidClassName", "intmax", text("double"))


@settings(max_examples=40, deadline=None)
@given(a=st.floats(-1e3, 1e3), b=st.floats(-1e3, 1e3), n=st.integers(0, 20))
def test_linspace_endpoints_and_spacing(a: float, b: float, n: int) -> None:
    out = np.atleast_2d(call("linspace", a, b, float(n)))
    assert out.shape == (1, n) if n != 1 else out.shape == (1, 1)
    if n >= 2:
        assert out[0, 0] == a and out[0, -1] == b
        np.testing.assert_allclose(out[0], np.linspace(a, b, n), atol=1e-9)


def test_linspace_logspace_colon() -> None:
    same(call("linspace", 0.0, 1.0, 5.0), row(0, 0.25, 0.5, 0.75, 1))
    assert call("linspace", 0.0, 1.0).shape == (1, 100)
    same(call("linspace", 3.0, 5.0, 1.0), 5.0)
    same(call("linspace", 3.0, 5.0, 0.0), np.zeros((1, 0)))
    same(call("logspace", 0.0, 2.0, 3.0), row(1, 10, 100))
    np.testing.assert_allclose(call("logspace", 0.0, math.pi, 3.0)[0, -1], math.pi)
    same(call("colon", 1.0, 3.0), row(1, 2, 3))
    same(call("colon", 1.0, 2.0, 6.0), row(1, 3, 5))


def test_grids() -> None:
    x, y = call("meshgrid", row(1, 2, 3), row(4, 5), nargout=2)
    same(x, np.array([[1.0, 2, 3], [1, 2, 3]]))
    same(y, np.array([[4.0, 4, 4], [5, 5, 5]]))
    a, b = call("ndgrid", row(1, 2, 3), row(4, 5), nargout=2)
    same(a, np.array([[1.0, 1], [2, 2], [3, 3]]))
    same(b, np.array([[4.0, 5], [4, 5], [4, 5]]))
    x, y, z = call("meshgrid", row(1, 2), row(3, 4, 5), row(6, 7), nargout=3)
    assert x.shape == (3, 2, 2) and z[0, 0, 1] == 7


def test_repmat_repelem() -> None:
    same(call("repmat", row(1, 2), 2.0, 2.0), np.array([[1.0, 2, 1, 2], [1, 2, 1, 2]]))
    same(call("repmat", 5.0, row(1, 3)), row(5, 5, 5))
    same(call("repmat", text("ab"), 1.0, 2.0), text("abab"))
    c = call("repmat", CellArray.from_list([1.0]), 2.0, 1.0)
    assert isinstance(c, CellArray) and c.shape == (2, 1)
    s = call("repmat", StructArray.scalar({"a": 1.0}), 1.0, 2.0)
    assert isinstance(s, StructArray) and s.shape == (1, 2) and s.data[0, 0] is not s.data[0, 1]
    same(call("repelem", row(1, 2), 2.0), row(1, 1, 2, 2))
    same(call("repelem", row(1, 2, 3), row(1, 0, 2)), row(1, 3, 3))
    same(call("repelem", np.array([[1.0], [2.0]]), 2.0), np.array([[1.0], [1], [2], [2]]))
    same(call("repelem", np.array([[1.0, 2], [3, 4]]), 2.0, 1.0),
         np.array([[1.0, 2], [1, 2], [3, 4], [3, 4]]))
    raises("MATLAB:repelem:mismatchedReplications", "repelem", row(1, 2, 3), row(1, 2))


def test_blkdiag_diag() -> None:
    same(call("blkdiag", 1.0, np.array([[2.0, 3]])), np.array([[1.0, 0, 0], [0, 2, 3]]))
    same(call("diag", row(1, 2)), np.array([[1.0, 0], [0, 2]]))
    same(call("diag", row(1, 2), 1.0), np.array([[0.0, 1, 0], [0, 0, 2], [0, 0, 0]]))
    same(call("diag", np.array([[1.0, 2], [3, 4]])), np.array([[1.0], [4.0]]))
    same(call("diag", np.array([[1.0, 2], [3, 4]]), -1.0), 3.0)
    same(call("diag", np.array([[1.0, 2], [3, 4]]), 5.0), np.zeros((0, 1)))


@pytest.mark.parametrize("n", [1, 3, 4, 5, 6, 8, 10, 12])
def test_magic_is_magic(n: int) -> None:
    m = call("magic", float(n))
    m = np.atleast_2d(m)
    total = n * (n * n + 1) / 2
    assert sorted(m.reshape(-1).tolist()) == list(range(1, n * n + 1))
    assert np.all(m.sum(axis=0) == total) and np.all(m.sum(axis=1) == total)
    assert np.trace(m) == total and np.trace(np.fliplr(m)) == total


def test_magic_matches_matlab() -> None:
    same(call("magic", 3.0), np.array([[8.0, 1, 6], [3, 5, 7], [4, 9, 2]]))
    same(call("magic", 4.0), np.array([[16.0, 2, 3, 13], [5, 11, 10, 8], [9, 7, 6, 12], [4, 14, 15, 1]]))
    same(call("magic", 2.0), np.array([[1.0, 3], [4, 2]]))
    same(call("magic", 0.0), EMPTY)
