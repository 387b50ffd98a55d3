"""Property tests: elementwise operators and indexing against NumPy models
of MATLAB's rules, on random small arrays."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from matfuse.runtime.indexing import COLON, DELETE, paren_get, paren_set
from matfuse.runtime.ops import binary
from matfuse.runtime.values import to_array

FAST = settings(max_examples=60, deadline=None)

shapes_2d = st.tuples(st.integers(1, 4), st.integers(1, 4))
finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False, width=64)


def doubles(shape) -> st.SearchStrategy[np.ndarray]:
    return hnp.arrays(np.float64, shape, elements=finite)


def matlab_round(x: np.ndarray) -> np.ndarray:
    return np.where(x >= 0, np.floor(x + 0.5), np.ceil(x - 0.5))


@FAST
@given(shapes_2d.flatmap(lambda s: st.tuples(doubles(s), doubles(s))),
       st.sampled_from(["+", "-", ".*", "./", "<", ">=", "==", "~="]))
def test_double_ops_match_numpy(pair, op) -> None:
    a, b = pair
    r = to_array(binary(op, a, b))
    with np.errstate(all="ignore"):
        expected = {"+": a + b, "-": a - b, ".*": a * b, "./": a / b, "<": a < b,
                    ">=": a >= b, "==": a == b, "~=": a != b}[op]
    assert r.dtype == expected.dtype
    np.testing.assert_array_equal(r, expected)


@FAST
@given(st.sampled_from(["int8", "uint8", "int16", "uint16", "int32"]),
       st.data(), st.sampled_from(["+", "-", ".*", "./"]),
       st.floats(-300, 300, allow_nan=False, width=64))
def test_integer_with_double_scalar(cls, data, op, scalar) -> None:
    info = np.iinfo(cls)
    a = data.draw(hnp.arrays(np.dtype(cls), (2, 3), elements=st.integers(int(info.min), int(info.max))))
    r = binary(op, a, scalar)
    with np.errstate(all="ignore"):
        exact = {"+": a + scalar, "-": a - scalar, ".*": a * scalar,
                 "./": a.astype(np.float64) / scalar}[op]
    expected = np.clip(np.nan_to_num(matlab_round(exact.astype(np.float64)), nan=0.0,
                                     posinf=info.max, neginf=info.min), info.min, info.max)
    assert r.dtype == np.dtype(cls)
    np.testing.assert_array_equal(r.astype(np.float64), expected)


@FAST
@given(st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3)),
       st.tuples(st.booleans(), st.booleans(), st.booleans()))
def test_implicit_expansion_shapes(shape, singleton) -> None:
    other = tuple(1 if s else d for d, s in zip(shape, singleton))
    a = np.ones(shape)
    b = np.full(other, 2.0)
    r = binary("+", a, b)
    assert to_array(r).reshape(shape).shape == shape
    assert np.all(to_array(r) == 3.0)


@FAST
@given(shapes_2d.flatmap(doubles), st.data())
def test_set_then_get_round_trip(x, data) -> None:
    rows, cols = x.shape
    i = data.draw(st.integers(1, rows + 2))
    j = data.draw(st.integers(1, cols + 2))
    value = data.draw(finite)
    y = to_array(paren_set(x, [float(i), float(j)], value))
    assert y.shape == (max(rows, i), max(cols, j))
    assert paren_get(y, [float(i), float(j)]) == value
    # Old elements are kept and new ones are zero.
    np.testing.assert_array_equal(y[:rows, :cols][(np.arange(rows)[:, None] != i - 1) |
                                                  (np.arange(cols)[None, :] != j - 1)],
                                  x[(np.arange(rows)[:, None] != i - 1) |
                                    (np.arange(cols)[None, :] != j - 1)])


@FAST
@given(shapes_2d.flatmap(doubles), st.data())
def test_linear_get_matches_fortran_order(x, data) -> None:
    k = data.draw(st.integers(1, x.size))
    assert paren_get(x, [float(k)]) == x.reshape(-1, order="F")[k - 1]
    col = to_array(paren_get(x, [COLON]))
    np.testing.assert_array_equal(col[:, 0], x.reshape(-1, order="F"))


@FAST
@given(st.integers(1, 8).flatmap(lambda n: st.tuples(
    hnp.arrays(np.float64, (1, n), elements=finite),
    st.lists(st.integers(1, n), min_size=0, max_size=n))))
def test_deletion_removes_exactly_the_indexed_elements(case) -> None:
    x, picks = case
    idx = np.array([picks], dtype=np.float64) if picks else np.zeros((1, 0))
    r = to_array(paren_set(x, [idx], DELETE))
    keep = np.ones(x.size, dtype=bool)
    keep[np.array(picks, dtype=int) - 1] = False
    np.testing.assert_array_equal(r.reshape(-1), x.reshape(-1)[keep])


_CLASS_SAMPLES = {
    "double": lambda v: v.astype(np.float64),
    "single": lambda v: v.astype(np.float32),
    "logical": lambda v: v != 0,
    "char": lambda v: np.abs(v).astype(np.uint32).view("<U1").reshape(v.shape),
    "int8": lambda v: v.astype(np.int8),
    "uint16": lambda v: np.abs(v).astype(np.uint16),
}


def _expected_class(ca: str, cb: str) -> str:
    for c in (ca, cb):
        if c.startswith(("int", "uint")):
            return c
    return "single" if "single" in (ca, cb) else "double"


@FAST
@given(st.sampled_from(sorted(_CLASS_SAMPLES)), st.sampled_from(sorted(_CLASS_SAMPLES)),
       hnp.arrays(np.int64, (2, 2), elements=st.integers(-100, 100)),
       hnp.arrays(np.int64, (2, 2), elements=st.integers(-100, 100)),
       st.sampled_from(["+", "-", ".*"]))
def test_class_combinations(ca, cb, va, vb, op) -> None:
    from matfuse.runtime.values import char_codes, class_of

    if ca != cb and ca.startswith(("int", "uint")) and cb.startswith(("int", "uint")):
        return
    a, b = _CLASS_SAMPLES[ca](va), _CLASS_SAMPLES[cb](vb)
    r = binary(op, a, b)
    cls = _expected_class(ca, cb)
    assert class_of(r) == cls

    def as_float(x: np.ndarray) -> np.ndarray:
        return char_codes(x).astype(np.float64) if x.dtype.kind == "U" else x.astype(np.float64)

    exact = {"+": np.add, "-": np.subtract, ".*": np.multiply}[op](as_float(a), as_float(b))
    if cls in ("int8", "uint16"):
        info = np.iinfo(cls)
        exact = np.clip(exact, info.min, info.max)
    np.testing.assert_allclose(to_array(r).astype(np.float64), exact, rtol=1e-6)
