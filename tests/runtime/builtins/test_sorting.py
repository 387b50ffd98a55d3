"""sort, sortrows, issorted: stability, NaN placement, complex, text."""

from __future__ import annotations

import math

import numpy as np
from builtins_a_support import call, ints, raises, row, same, text
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from matfuse.runtime.values import CellArray, StringArray, char_array, to_str

arrays = hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=3, max_side=5),
                    elements=st.sampled_from([0.0, 1.0, -2.0, 3.5, 1.0, math.nan, math.inf]))


def cellstr(*items: str) -> CellArray:
    return CellArray.from_list([char_array(s) for s in items])


@settings(max_examples=50, deadline=None)
@given(arr=arrays)
def test_sort_ascending_matches_stable_numpy(arr: np.ndarray) -> None:
    dim = next((i for i, d in enumerate(arr.shape) if d != 1), 0)
    s, i = call("sort", arr, nargout=2)
    s, i = np.asarray(s).reshape(arr.shape), np.asarray(i).reshape(arr.shape)
    order = np.argsort(arr, axis=dim, kind="stable")
    np.testing.assert_array_equal(s, np.take_along_axis(arr, order, axis=dim))
    np.testing.assert_array_equal(i - 1, order)


@settings(max_examples=50, deadline=None)
@given(arr=arrays)
def test_sort_descend_is_stable_with_nan_first(arr: np.ndarray) -> None:
    flat = arr.reshape(-1, order="F").reshape(-1, 1)
    s, i = call("sort", flat, text("descend"), nargout=2)
    s, i = np.asarray(s).reshape(-1), np.asarray(i).reshape(-1).astype(int) - 1
    values = flat.reshape(-1)
    expected = sorted(range(values.size),
                      key=lambda k: (0 if math.isnan(values[k]) else 1,
                                     0 if math.isnan(values[k]) else -values[k], k))
    np.testing.assert_array_equal(i, expected)


def test_sort_examples() -> None:
    s, i = call("sort", row(3, math.nan, 1, 3), nargout=2)
    same(s, row(1, 3, 3, math.nan))
    same(i, row(3, 1, 4, 2))
    s, i = call("sort", row(3, math.nan, 1, 3), text("descend"), nargout=2)
    same(s, row(math.nan, 3, 3, 1))
    same(i, row(2, 1, 4, 3))
    m = np.array([[3.0, 1], [1, 2]])
    same(call("sort", m, 2.0), np.array([[1.0, 3], [1, 2]]))
    same(call("sort", m, 2.0, text("descend")), np.array([[3.0, 1], [2, 1]]))
    same(call("sort", text("hello")), text("ehllo"))
    same(call("sort", ints("int8", 3, -128, 127), text("descend")), ints("int8", 127, 3, -128))
    same(call("sort", np.array([[True, False]])), np.array([[False, True]]))
    z = np.array([[-2 + 0j, 1j, 1 + 0j]])
    same(call("sort", z), np.array([[1 + 0j, 1j, -2 + 0j]]))
    raises("MATLAB:sort:sortDirection", "sort", row(1, 2), text("up"))


def test_sort_text_arrays() -> None:
    s, i = call("sort", cellstr("pear", "Apple", "fig", "apple"), nargout=2)
    assert [to_str(v) for v in s.data.reshape(-1)] == ["Apple", "apple", "fig", "pear"]
    same(i, row(2, 4, 3, 1))
    d = call("sort", cellstr("b", "a", "c"), text("descend"))
    assert [to_str(v) for v in d.data.reshape(-1)] == ["c", "b", "a"]
    strings = StringArray(np.array([["b", "a"]], dtype=object))
    assert call("sort", strings).data.tolist() == [["a", "b"]]


def test_sortrows() -> None:
    m = np.array([[1.0, 2], [0, 5], [1, 1]])
    s, i = call("sortrows", m, nargout=2)
    same(s, np.array([[0.0, 5], [1, 1], [1, 2]]))
    same(i, np.array([[2.0], [3.0], [1.0]]))
    same(call("sortrows", m, -1.0), np.array([[1.0, 2], [1, 1], [0, 5]]))
    same(call("sortrows", m, row(1, -2)), np.array([[0.0, 5], [1, 2], [1, 1]]))
    same(call("sortrows", m, text("descend")), np.array([[1.0, 2], [1, 1], [0, 5]]))
    c = CellArray.from_list([char_array(t) for t in ("b", "a", "x", "y")], shape=(2, 2))
    out = call("sortrows", c)
    assert to_str(out.data[0, 0]) == "a" and to_str(out.data[0, 1]) == "y"
    raises("MATLAB:sortrows:COLmismatchX", "sortrows", m, 3.0)


def test_issorted() -> None:
    same(call("issorted", row(1, 1, 2)), True)
    same(call("issorted", row(2, 1)), False)
    same(call("issorted", row(1, 2, math.nan)), True)
    same(call("issorted", row(3, 2, 2), text("descend")), True)
    same(call("issorted", np.array([[1.0, 2], [1, 3]]), text("rows")), True)
    same(call("issorted", cellstr("a", "b")), True)


def test_sort_comparison_method() -> None:
    same(call("sort", row(-3, 1, -1, 2), text("ComparisonMethod"), text("abs")), row(1, -1, 2, -3))
    z = np.array([[1 + 2j, 1 - 1j, -2 + 0j]])
    same(call("sort", z, text("ComparisonMethod"), text("real")), np.array([[-2 + 0j, 1 - 1j, 1 + 2j]]))
    raises("MATLAB:sort:InvalidComparisonMethod", "sort", row(1, 2), text("ComparisonMethod"), text("x"))


def test_issorted_rejects_unknown_directions() -> None:
    raises("MATLAB:issorted:sortDirection", "issorted", np.eye(3), text("5"))
    assert call("issorted", row(3, 2, 1), text("descend")) is True


def test_vector_sort_mode_is_remembered_only_for_frozen_arguments() -> None:
    """A writeable mode argument changed after a call is read again; a
    frozen (shared literal) one is recognised by identity."""
    from matfuse.runtime.builtins.sorting import sort

    v = np.array([[3.0, 1.0, 2.0]])
    mode = char_array("descend")
    assert sort(v, mode).tolist() == [[3.0, 2.0, 1.0]]
    mode[0, :6] = list("ascend")
    mode = mode[:, :6]
    assert sort(v, mode).tolist() == [[1.0, 2.0, 3.0]]
    frozen = char_array("descend")
    frozen.flags.writeable = False
    for _ in range(2):
        values, index = sort(v, frozen, nargout=2)
        assert values.tolist() == [[3.0, 2.0, 1.0]] and index.tolist() == [[1.0, 3.0, 2.0]]
    assert sort(v.T, char_array("ascend")).tolist() == [[1.0], [2.0], [3.0]]
