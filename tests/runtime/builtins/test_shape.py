"""Shape functions and find/any/all/nnz/sub2ind/ind2sub."""

from __future__ import annotations

import math

import numpy as np
from builtins_a_support import call, raises, row, same, text
from hypothesis import given, settings
from hypothesis.extra import numpy as hnp
from hypothesis import strategies as st

from matfuse.runtime.values import CellArray

EMPTY = np.zeros((0, 0))
A = np.arange(1.0, 7.0).reshape(2, 3, order="F")  # [1 3 5; 2 4 6]
arrays = hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=3, max_side=4),
                    elements=st.sampled_from([0.0, 1.0, -2.0, 3.5]))


def test_reshape() -> None:
    same(call("reshape", A, 3.0, 2.0), np.array([[1.0, 4], [2, 5], [3, 6]]))
    same(call("reshape", A, row(1, 6)), row(1, 2, 3, 4, 5, 6))
    same(call("reshape", A, EMPTY, 2.0), np.array([[1.0, 4], [2, 5], [3, 6]]))
    assert call("reshape", A, 1.0, 1.0, 6.0).shape == (1, 1, 6)
    same(call("reshape", text("abcd"), 2.0, 2.0), np.array([["a", "c"], ["b", "d"]]))
    c = call("reshape", CellArray.from_list([1.0, 2.0]), 2.0, 1.0)
    assert isinstance(c, CellArray) and c.shape == (2, 1)
    raises("MATLAB:getReshapeDims:notSameNumel", "reshape", A, 4.0, 2.0,
           message="Number of elements must not change. Use [] as one of the size inputs to "
                   "automatically calculate the appropriate size for that dimension.")
    raises("MATLAB:getReshapeDims:notDivisible", "reshape", A, EMPTY, 4.0)
    raises("MATLAB:getReshapeDims:unknownDim", "reshape", A, EMPTY, EMPTY)


def test_permute_squeeze() -> None:
    x = np.arange(24.0).reshape(2, 3, 4, order="F")
    p = call("permute", x, row(3, 1, 2))
    assert p.shape == (4, 2, 3) and p[1, 0, 2] == x[0, 2, 1]
    same(call("ipermute", p, row(3, 1, 2)), x)
    same(call("permute", A, row(2, 1)), A.T)
    raises("MATLAB:permute:badIndex", "permute", A, row(1, 1))
    raises("MATLAB:permute:tooFewIndices", "permute", x, row(2, 1))
    same(call("squeeze", np.ones((1, 1, 3))), np.ones((3, 1)))
    same(call("squeeze", np.ones((2, 1, 3))), np.ones((2, 3)))
    same(call("squeeze", row(1, 2)), row(1, 2))


def test_circshift_flip_rot_tri() -> None:
    same(call("circshift", row(1, 2, 3, 4), 1.0), row(4, 1, 2, 3))
    same(call("circshift", A, 1.0, 2.0), np.array([[5.0, 1, 3], [6, 2, 4]]))
    same(call("circshift", A, row(1, -1)), np.array([[4.0, 6, 2], [3, 5, 1]]))
    same(call("flip", row(1, 2, 3)), row(3, 2, 1))
    same(call("flip", A, 2.0), np.fliplr(A))
    same(call("fliplr", A), np.fliplr(A))
    same(call("flipud", A), np.flipud(A))
    same(call("rot90", A), np.array([[5.0, 6], [3, 4], [1, 2]]))
    same(call("rot90", A, 2.0), np.rot90(A, 2))
    m = np.arange(1.0, 10.0).reshape(3, 3)
    same(call("tril", m), np.tril(m))
    same(call("triu", m, 1.0), np.triu(m, 1))
    same(call("tril", m, -1.0), np.tril(m, -1))
    same(call("kron", np.eye(2), np.array([[1.0, 2]])), np.kron(np.eye(2), [[1.0, 2]]))


def test_find() -> None:
    x = np.array([[0.0, 3], [5, 0]])
    same(call("find", x), np.array([[2.0], [3.0]]))
    same(call("find", row(0, 1, 0, 1, 1)), row(2, 4, 5))
    same(call("find", row(1, 0, 1, 1), 2.0, text("last")), row(3, 4))
    same(call("find", row(1, 0, 1, 1), 1.0), 1.0)
    r, c, v = call("find", x, nargout=3)
    same(r, np.array([[2.0], [1.0]]))
    same(c, np.array([[1.0], [2.0]]))
    same(v, np.array([[5.0], [3.0]]))
    # MATLAB: no hits in a scalar (like in a 0x0 array) give 0x0; a row
    # gives 1x0, anything else 0x1.
    same(call("find", 0.0), EMPTY)
    same(call("find", False), EMPTY)
    same(call("find", np.zeros((1, 0))), np.zeros((1, 0)))
    same(call("find", np.zeros((0, 1))), np.zeros((0, 1)))
    same(call("find", np.zeros((2, 0))), np.zeros((0, 1)))
    r0, c0, v0 = call("find", 0.0, nargout=3)
    same(r0, EMPTY)
    same(v0, EMPTY)
    same(call("find", EMPTY), EMPTY)
    same(call("find", np.zeros((0, 3))), np.zeros((0, 1)))
    same(call("find", np.zeros((2, 2))), np.zeros((0, 1)))
    raises("MATLAB:find:invalidDirection", "find", row(1, 0), 1.0, text("middle"))


@settings(max_examples=40, deadline=None)
@given(arr=arrays)
def test_find_matches_numpy(arr: np.ndarray) -> None:
    got = np.asarray(call("find", arr)).reshape(-1)
    np.testing.assert_array_equal(got - 1, np.flatnonzero(arr.reshape(-1, order="F")))
    assert call("nnz", arr) == float(np.count_nonzero(arr))


def test_any_all_nnz() -> None:
    x = np.array([[0.0, 1], [0, 1]])
    same(call("any", x), np.array([[False, True]]))
    same(call("all", x, 2.0), np.array([[False], [False]]))
    same(call("any", x, text("all")), True)
    same(call("any", EMPTY), False)
    same(call("all", EMPTY), True)
    same(call("any", np.zeros((0, 3))), np.array([[False, False, False]]))
    same(call("any", math.nan), False)
    same(call("all", math.nan), True)
    same(call("nnz", row(1, 0, math.nan)), 2.0)
    same(call("nnz", text("ab")), 2.0)


def test_sub2ind_ind2sub() -> None:
    same(call("sub2ind", row(3, 4), 2.0, 3.0), 8.0)
    same(call("sub2ind", row(3, 4, 2), row(1, 3), row(1, 4), row(1, 2)), row(1, 24))
    r, c = call("ind2sub", row(3, 4), row(8, 12), nargout=2)
    same(r, row(2, 3))
    same(c, row(3, 4))
    r, c = call("ind2sub", row(2, 3, 4), 24.0, nargout=2)
    same(r, 2.0)
    same(c, 12.0)
    raises("MATLAB:sub2ind:IndexOutOfRange", "sub2ind", row(3, 4), 4.0, 1.0)
    raises("MATLAB:ind2sub:IndexOutOfRange", "ind2sub", row(3, 4), 13.0)
