"""max/min: reductions, elementwise forms, NaN and complex rules."""

from __future__ import annotations

import math

import numpy as np
from builtins_a_support import call, ints, raises, row, same, text
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

EMPTY = np.zeros((0, 0))
arrays = hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=4),
                    elements=st.floats(-100, 100, allow_nan=False))


@settings(max_examples=40, deadline=None)
@given(arr=arrays)
def test_reduction_matches_numpy(arr: np.ndarray) -> None:
    dim = next((i for i, d in enumerate(arr.shape) if d != 1), 0)
    m, i = call("max", arr, nargout=2)
    np.testing.assert_array_equal(np.asarray(m).reshape(-1), arr.max(axis=dim).reshape(-1, order="C")
                                  if arr.ndim == 2 else np.asarray(m).reshape(-1))
    np.testing.assert_array_equal(np.asarray(i).reshape(-1) - 1,
                                  np.argmax(arr, axis=dim).reshape(-1))
    lo = call("min", arr, EMPTY, float(arr.ndim))
    np.testing.assert_array_equal(np.asarray(lo).reshape(-1), arr.min(axis=arr.ndim - 1).reshape(-1))
    assert call("max", arr, EMPTY, text("all")) == arr.max()


def test_nan_handling() -> None:
    x = np.array([[3, math.nan, 1], [math.nan, math.nan, 5]])
    m, i = call("max", x, nargout=2)
    same(m, row(3, math.nan, 5))
    same(i, row(1, 1, 2))
    m, i = call("min", x, text("includenan"), nargout=2)
    same(m, row(math.nan, math.nan, 1))
    same(i, row(2, 1, 1))
    same(call("max", math.nan, 1.0), 1.0)
    same(call("max", row(math.nan, 2), row(1, math.nan)), row(1, 2))
    same(call("max", row(math.nan, 2), row(1, math.nan), text("includenan")), row(math.nan, math.nan))


def test_dims_all_and_linear_indices() -> None:
    x = np.array([[1.0, 9, 3], [7, 2, 8]])
    m, i = call("max", x, EMPTY, 2.0, nargout=2)
    same(m, np.array([[9.0], [8.0]]))
    same(i, np.array([[2.0], [3.0]]))
    m, i = call("max", x, EMPTY, text("all"), nargout=2)
    same(m, 9.0)
    same(i, 3.0)
    m, i = call("min", x, EMPTY, row(1, 2), nargout=2)
    same(m, 1.0)
    same(i, 1.0)
    same(call("max", x, EMPTY, 3.0), x)


def test_complex_compare_by_abs_then_angle() -> None:
    z = np.array([[1 + 1j, -1 - 1j, 1.4142135623730951j]])
    m, i = call("max", z, nargout=2)
    assert i == 3.0
    same(call("min", np.array([[3 + 0j, -4]]), nargout=1), 3.0)
    same(call("max", np.array([[1j]]), -2.0), -2.0)


def test_classes() -> None:
    same(call("max", ints("int8", 5), 7.7), ints("int8", 8))
    same(call("max", np.array([[True, False]])), True)
    same(call("max", text("abc")), 99.0)
    assert call("max", np.array([[1, 2]], dtype=np.float32), 3.0).dtype == np.float32
    same(call("min", ints("uint8", 3, 1)), ints("uint8", 1))


def test_empty_rules() -> None:
    same(call("max", EMPTY), EMPTY)
    assert call("max", np.zeros((0, 3))).shape == (0, 3)
    assert call("max", np.zeros((3, 0)), EMPTY, 2.0).shape == (3, 0)
    m, i = call("max", EMPTY, nargout=2)
    assert m.shape == (0, 0) and i.shape == (0, 0)


def test_errors() -> None:
    raises("MATLAB:max:TwoInTwoOutCaseNotSupported", "max", 1.0, 2.0, nargout=2)
    raises("MATLAB:min:caseNotSupported", "min", row(1, 2), row(1, 2), 1.0)
    raises("MATLAB:sizeDimensionsMustMatch", "max", row(1, 2), row(1, 2, 3))
    raises("MATLAB:getdimarg:dimensionMustBePositiveInteger", "max", row(1, 2), EMPTY, 0.0)


def test_scalar_fast_path() -> None:
    assert type(call("max", 2.0, 3.0)) is float
    same(call("min", 2.0, -3.0), -3.0)
