"""accumarray (vectorised reducers and function handles), maxk/mink, perms,
nextpow2, reallog/realpow."""

from __future__ import annotations

import math

import numpy as np
from builtins_a_support import call, ints, raises, row, same
from hypothesis import given, settings
from hypothesis import strategies as st

from matfuse.runtime.builtins.accumulation import accumarray
from matfuse.runtime.values import CellArray, FunctionHandle


class FakeContext:
    """Calls anonymous handles given as Python callables (fn(args, nargout))."""

    def call(self, fn, args, nargout):
        return fn.fn(args, nargout)


def col(*values: float) -> np.ndarray:
    return np.array(values, dtype=np.float64).reshape(-1, 1)


def handle(name: str) -> FunctionHandle:
    return FunctionHandle(name=name)


@settings(max_examples=40, deadline=None)
@given(pairs=st.lists(st.tuples(st.integers(1, 6), st.integers(-5, 5)), min_size=1, max_size=12))
def test_accumarray_sum_matches_bincount(pairs: list[tuple[int, int]]) -> None:
    subs = col(*[p[0] for p in pairs])
    vals = col(*[p[1] for p in pairs])
    got = np.asarray(accumarray(FakeContext(), subs, vals)).reshape(-1)
    expected = np.bincount([p[0] - 1 for p in pairs], weights=[p[1] for p in pairs])
    np.testing.assert_array_equal(got, expected)


def test_accumarray_forms() -> None:
    ctx = FakeContext()
    same(accumarray(ctx, col(1, 2, 1, 4), col(10, 20, 30, 40)), col(40, 20, 0, 40))
    same(accumarray(ctx, np.array([[1.0, 1], [2, 2], [1, 1]]), row(1, 2, 3)),
         np.array([[4.0, 0], [0, 2]]))
    same(accumarray(ctx, col(1, 2, 1), col(5, 6, 7), np.zeros((0, 0)), handle("max")), col(7, 6))
    same(accumarray(ctx, col(1, 3), col(5, 6), row(4, 1), handle("prod"), math.nan),
         col(5, math.nan, 6, math.nan))
    same(accumarray(ctx, col(2, 2, 3), 1.0), col(0, 2, 1))
    same(accumarray(ctx, col(1, 2, 1), col(5, 6, 7), np.zeros((0, 0)), handle("mean")), col(6, 6))
    cells = CellArray.from_list([col(1, 2, 1), col(1, 1, 2)])
    same(accumarray(ctx, cells, col(1, 2, 3)), np.array([[1.0, 3], [2, 0]]))
    same(accumarray(ctx, col(1, 2), ints("int8", 100, 5).T), np.array([[100], [5]], dtype=np.int8))


def test_accumarray_function_handles() -> None:
    ctx = FakeContext()
    count = FunctionHandle(fn=lambda args, nargout: [float(args[0].size if hasattr(args[0], "size") else 1)],
                           text="@(x) numel(x)")
    same(accumarray(ctx, col(1, 2, 1), col(5, 6, 7), np.zeros((0, 0)), count), col(2, 1))
    boxed = FunctionHandle(fn=lambda args, nargout: [CellArray.from_list([args[0]])], text="@(x) {x}")
    out = accumarray(ctx, col(1, 3, 1), col(5, 6, 7), np.zeros((0, 0)), boxed)
    assert isinstance(out, CellArray) and out.shape == (3, 1)
    same(out.data[0, 0], col(5, 7))
    assert out.data[1, 0].shape == (0, 0)


def test_accumarray_errors() -> None:
    raises("MATLAB:accumarray:subsNonPositive", "accumarray", col(0, 1), col(1, 2))
    raises("MATLAB:accumarray:subsNonInteger", "accumarray", col(1.5), col(1))
    raises("MATLAB:accumarray:valsLengthMismatch", "accumarray", col(1, 2), col(1, 2, 3))
    raises("MATLAB:accumarray:sizeTooSmall", "accumarray", col(1, 5), col(1, 2), row(3, 1))


def test_maxk_mink() -> None:
    b, i = call("maxk", row(3, math.nan, 9, 1, 9), 3.0, nargout=2)
    same(b, row(9, 9, 3))
    same(i, row(3, 5, 1))
    same(call("mink", np.array([[4.0, 2], [1, 5]]), 1.0), row(1, 2))
    same(call("mink", np.array([[4.0, 2], [1, 5]]), 1.0, 2.0), col(2, 1))
    same(call("maxk", row(1, 2), 5.0), row(2, 1))


def test_perms_nextpow2_real_functions() -> None:
    same(call("perms", row(1, 2, 3)),
         np.array([[3.0, 2, 1], [3, 1, 2], [2, 3, 1], [2, 1, 3], [1, 3, 2], [1, 2, 3]]))
    assert call("perms", ints("int8", 1, 2)).dtype == np.int8
    same(call("nextpow2", row(0, 1, 2, 3, 1024, 1025, 0.3)), row(0, 0, 1, 2, 10, 11, -1))
    same(call("nextpow2", math.inf), math.inf)
    same(call("reallog", 1.0), 0.0)
    raises("MATLAB:reallog:complexResult", "reallog", -1.0)
    same(call("realpow", 2.0, row(1, 2, 3)), row(2, 4, 8))
    same(call("realpow", -8.0, 2.0), 64.0)
    raises("MATLAB:realpow:complexResult", "realpow", -8.0, 0.5)
