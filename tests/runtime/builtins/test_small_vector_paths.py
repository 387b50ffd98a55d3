"""The direct paths for small vectors (sort, find(x, 1), mod by a whole
scalar, unit colon ranges) give what the general paths give."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.runtime import ops
from matfuse.runtime.builtins import sorting
from matfuse.runtime.registry import lookup
from matfuse.runtime.values import char_array

find = lookup("find").impl
mod = lookup("mod").impl
rem = lookup("rem").impl
sort = lookup("sort").impl


@pytest.mark.parametrize("values", [
    [3.0, 1.0, 2.0, 1.0, -0.0, 0.0, 3.0],
    [5.0],
    [2.0, -np.inf, np.inf, 2.0],
    [1.0, np.nan, 0.0, np.nan],
])
@pytest.mark.parametrize("mode", [None, "ascend", "descend"])
@pytest.mark.parametrize("column", [False, True])
def test_vector_sort_matches_the_general_path(values, mode, column):
    v = np.array([values])
    if column:
        v = v.T
    args = () if mode is None else (char_array(mode),)
    got_s, got_i = sort(v, *args, nargout=2)
    # the general path: sorting along the vector's own dimension, by number
    dim = 1.0 if column else 2.0
    want_s, want_i = sort(v, dim, *args, nargout=2)
    np.testing.assert_array_equal(np.asarray(got_s), np.asarray(want_s))
    np.testing.assert_array_equal(np.asarray(got_i), np.asarray(want_i))
    if isinstance(got_s, np.ndarray):
        assert got_s.shape == v.shape and got_i.shape == v.shape
        assert np.array_equal(np.signbit(got_s), np.signbit(np.asarray(want_s)))


@pytest.mark.parametrize("x", [np.zeros((1, 0)), np.array([[np.nan]]), np.array([[4.0]])])
def test_empty_and_one_element_vectors(x):
    got = sort(x, char_array("descend"), nargout=2)
    want = sort(x, 2.0, char_array("descend"), nargout=2)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
        assert np.shape(g) == np.shape(w)


def test_long_vectors_past_the_counting_row():
    v = np.random.default_rng(1).integers(0, 50, 70000).astype(np.float64).reshape(-1, 1)
    s, i = sort(v, nargout=2)
    np.testing.assert_array_equal(i.ravel(), np.argsort(v.ravel(), kind="stable") + 1.0)
    assert s.shape == i.shape == v.shape and i.dtype == np.float64
    hits = find(v.T == 7.0)
    np.testing.assert_array_equal(hits.ravel(), np.flatnonzero(v.ravel() == 7.0) + 1.0)


def test_descending_ties_keep_their_order():
    s, i = sort(np.array([[1.0, 2.0, 1.0, 2.0]]), char_array("descend"), nargout=2)
    np.testing.assert_array_equal(i, [[2.0, 4.0, 1.0, 3.0]])
    assert sorting._sort_double_vector(np.array([[1.0, np.nan]]), (), 1) is None


@pytest.mark.parametrize("x", [
    np.array([[0.0, 3.0, 0.0, 5.0]]),
    np.array([[0.0, 0.0]]),
    np.array([[0.0], [np.nan], [2.0]]),
    np.array([[0.0, 1.0], [1.0, 0.0]]),
    np.array([[False, False, True]]),
    np.zeros((3, 1)),
])
def test_find_first_matches_find_all(x):
    first = find(x, 1.0)
    every = np.asarray(find(x))
    if every.size:
        assert first == every.reshape(-1, order="F")[0]
    else:
        assert first.shape == ((1, 0) if x.shape[0] == 1 else (0, 1))


def test_mod_and_rem_by_a_whole_scalar():
    a = np.array([[-5.5, -3.0, 0.0, -0.0, 3.0, 7.25, np.inf, np.nan, 1e17 + 3]])
    for divisor in (3.0, -3.0, 1.0):
        for fn, floor in ((mod, np.floor), (rem, np.trunc)):
            want = a - divisor * floor(a / divisor)
            got = fn(a, divisor)
            np.testing.assert_array_equal(got, want)
            assert got is not a and got.dtype == np.float64
    assert a[0, 0] == -5.5     # the input is untouched


@pytest.mark.parametrize("start, stop", [
    (1.0, 10.0), (0.0, 5.0), (4.0, 3.0), (2.0, 2.0), (-3.0, 2.0),
    (65530.0, 65540.0), (1.0, 65536.0), (1.5, 4.0),
])
def test_unit_colon_ranges(start, stop):
    got = ops.colon_range(start, None, stop)
    want = np.arange(start, stop + 0.5 if stop >= start else start).reshape(1, -1)
    if want.size == 1:
        assert got == want[0, 0]
        return
    assert got.shape == want.shape and got.dtype == np.float64
    np.testing.assert_array_equal(got, want)
    if got.size:
        got[0, 0] = -1.0               # a fresh, writable array
        assert ops.colon_range(start, None, stop)[0, 0] == want[0, 0]
