"""sum prod mean median mode range bounds: dims, flags, classes, empties."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from builtins_b_support import call, close, raises, row, text
from matfuse.runtime.values import CellArray, as_matlab_array

A = np.arange(1.0, 7.0).reshape(2, 3, order="F")   # [1 3 5; 2 4 6]

matrices = hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=5),
                      elements=st.floats(-100, 100, allow_nan=False))


@settings(max_examples=40, deadline=None)
@given(matrices, st.integers(1, 3))
def test_sum_prod_mean_match_numpy(x: np.ndarray, dim: int) -> None:
    for name, fn in (("sum", np.sum), ("prod", np.prod), ("mean", np.mean)):
        got = call(name, x, float(dim))
        expect = fn(x, axis=dim - 1, keepdims=True) if dim - 1 < x.ndim else x
        close(got, as_matlab_array(np.asarray(expect)), rtol=1e-9, atol=1e-9)


def test_default_dim_and_all() -> None:
    close(call("sum", A), row(3, 7, 11))
    close(call("sum", row(1, 2, 3)), 6.0)
    close(call("sum", A, 2.0), np.array([[9.0], [12.0]]))
    assert call("sum", A, text("all")) == 21.0
    close(call("sum", np.ones((2, 3, 4)), row(1, 3)), np.full((1, 3), 8.0))
    close(call("sum", A, 3.0), A)


def test_empty_rules() -> None:
    assert call("sum", np.zeros((0, 0))) == 0.0
    assert call("prod", np.zeros((0, 0))) == 1.0
    assert np.isnan(call("mean", np.zeros((0, 0))))
    close(call("sum", np.zeros((0, 3))), np.zeros((1, 3)))
    close(call("mean", np.zeros((0, 3))), np.full((1, 3), np.nan))
    assert call("sum", np.zeros((1, 0))) == 0.0
    close(call("sum", np.zeros((3, 0))), np.zeros((1, 0)))
    assert np.isnan(call("median", np.zeros((0, 0))))


def test_output_classes() -> None:
    # MATLAB's documented default: integer input sums in and returns double.
    assert call("sum", np.array([[100, 100]], dtype=np.int8)) == 200.0
    s = call("sum", np.array([[100, 100]], dtype=np.int8), text("native"))
    assert s.dtype == np.int8 and s[0, 0] == 127
    assert call("prod", np.array([[20, 20]], dtype=np.uint8)) == 400.0
    assert call("sum", np.array([[100, 100]], dtype=np.int8), text("double")) == 200.0
    assert call("sum", np.array([[1, 2]], dtype=np.float32)).dtype == np.float32
    assert call("sum", np.array([[True, True]])) == 2.0
    assert call("sum", np.array([[True, True]]), text("native")) is True
    assert call("sum", text("ab")) == 195.0
    assert call("mean", np.array([[1, 2]], dtype=np.int8)) == 1.5
    m = call("mean", np.array([[1, 2]], dtype=np.int8), text("native"))
    assert m.dtype == np.int8 and m[0, 0] == 2
    big = np.array([[2 ** 62, 2 ** 62]], dtype=np.int64)
    assert call("sum", big, text("native"))[0, 0] == np.iinfo(np.int64).max


def test_native_integer_accumulation_saturates_at_each_step() -> None:
    # 'native' accumulates in the integer class: 127 + 10 saturates first
    assert call("sum", np.array([[127, 10, -20]], dtype=np.int8), text("native"))[0, 0] == 107
    assert call("sum", np.array([[100, 100, -100]], dtype=np.int8), text("native"))[0, 0] == 27
    assert call("prod", np.array([[100, 2, -1]], dtype=np.int8), text("native"))[0, 0] == -127
    both = call("sum", np.array([[100, 100], [100, -100]], dtype=np.int8), 2.0, text("native"))
    assert both.tolist() == [[127], [0]]
    # 'all' runs in column-major order: 100, -100, 100, 1
    grid = np.array([[100, 100], [-100, 1]], dtype=np.int8)
    assert call("sum", grid, text("all"), text("native")) == 101
    wide = np.array([[2 ** 63 - 1, 1, -5]], dtype=np.int64)
    assert call("sum", wide, text("native"))[0, 0] == 2 ** 63 - 6


def test_native_integer_accumulation_of_empties_and_vecdims() -> None:
    # no elements along the dimension: the sum's 0 (product's 1) in the class
    empty = call("sum", np.zeros((0, 3), dtype=np.int8), text("native"))
    assert empty.dtype == np.int8 and empty.tolist() == [[0, 0, 0]]
    ones = call("prod", np.zeros((3, 0), dtype=np.uint16), 2.0, text("native"))
    assert ones.dtype == np.uint16 and ones.tolist() == [[1], [1], [1]]
    assert call("sum", np.zeros((6, 0), dtype=np.int8), text("native")).shape == (1, 0)
    # a vecdim is a set: its elements run in column-major order however listed
    # (100, 100 saturate to 127, then -100 and 0: 27; dim 3 first would be 100)
    pages = np.array([[[100, -100], [100, 0]]], dtype=np.int8)      # 1x2x2
    for dims in ([2.0, 3.0], [3.0, 2.0]):
        assert call("sum", pages, row(*dims), text("native")) == 27


def test_nan_flags() -> None:
    x = row(1, np.nan, 3)
    assert np.isnan(call("sum", x))
    assert call("sum", x, text("omitnan")) == 4.0
    assert call("mean", x, text("omitnan")) == 2.0
    assert call("median", x, text("omitnan")) == 2.0
    assert np.isnan(call("median", x))
    assert call("prod", x, text("omitnan")) == 3.0


def test_median_and_mode() -> None:
    close(call("median", A, 2.0), np.array([[3.0], [4.0]]))
    assert call("median", row(3, 1, 2, 10)) == 2.5
    m = call("median", np.array([[1, 2]], dtype=np.int8))
    assert m.dtype == np.int8 and m[0, 0] == 2
    assert call("mode", row(1, 2, 2, 3, 3)) == 2.0
    m, f, c = call("mode", row(1, 2, 2, 3, 3), nargout=3)
    assert (m, f) == (2.0, 2.0)
    assert isinstance(c, CellArray)
    close(c.data[0, 0], np.array([[2.0], [3.0]]))
    assert np.isnan(call("mode", np.zeros((0, 0))))


def test_range_bounds() -> None:
    close(call("range", A), row(1, 1, 1))
    lo, hi = call("bounds", row(3, np.nan, 1), nargout=2)
    assert (lo, hi) == (1.0, 3.0)


def test_errors() -> None:
    raises("MATLAB:getdimarg:dimensionMustBePositiveInteger", "sum", A, 0.0)
    raises("MATLAB:sum:invalidType", "sum", CellArray.from_list([1.0]))
    raises("MATLAB:sum:unknownFlag", "sum", A, text("bogus"))


def test_mode_along_a_dim_past_ndims_is_the_identity() -> None:
    m, f, c = call("mode", row(1, 2, 2), 7.0, nargout=3)
    close(m, row(1, 2, 2))
    close(f, row(1, 1, 1))
    assert isinstance(c, CellArray) and c.data.shape == (1, 3)
