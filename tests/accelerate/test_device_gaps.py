"""Builtins that used to leave the device (accumarray, long sorts, maxk/mink,
movmean/movsum, integer max/min) run there: each snippet runs on host data
and on gpuArrays; results agree in class, size and values, and the device
run makes no host fallback."""

from __future__ import annotations

import io

import numpy as np
import pytest

from matfuse import Session
from matfuse.accelerate_api import fallback_counts, reset_fallback_counts
from matfuse.runtime.registry import load_all

SETUP = ("S = mod((0:999)', 13) + 1; V = sin((1:1000)'); V(7) = NaN; "
         "S2 = [S, mod((0:999)', 5) + 1]; L = cos((1:5000) * 0.37); L(17) = NaN; "
         "M = reshape(sin(1:60), 6, 10); I = int32(reshape(mod((1:24) * 37, 101) - 50, 4, 6)); "
         "U = uint8(reshape(mod((1:24) * 11, 256), 4, 6));")
DEVICE = ["S", "V", "S2", "L", "M", "I", "U"]

ACCUMARRAY = [
    "r = accumarray(S, V);", "r = accumarray(S, V, [15 1]);",
    "r = accumarray(S, V, [], @max);", "r = accumarray(S, V, [14 1], @min, -1);",
    "r = accumarray(S2, V);", "r = accumarray(S2, V, [13 6], @max);",
    "r = accumarray(S, 1);", "r = accumarray(gather(S), V);",
]
EXACT = {"r = accumarray(S, V);", "r = accumarray(S2, V);", "r = accumarray(gather(S), V);"}


def _run(code: str, on_device: bool) -> tuple[str, tuple, np.ndarray]:
    """Class, size and values of ``r`` (with the second output ``k``, when
    the snippet sets one, appended to the values)."""
    s = Session(stdout=io.StringIO())
    s.eval(SETUP + ("".join(f"{v} = gpuArray({v});" for v in DEVICE) if on_device
                    else "gather = @(v) v;") + " k = 0;")
    reset_fallback_counts()
    s.eval(code + " cls = class(gather(r)); r = gather(r); k = gather(k);")
    r = np.asarray(s.get("r"))
    k = np.asarray(s.get("k"), dtype=np.float64).reshape(-1)
    return s.get("cls"), r.shape, np.concatenate([r.astype(np.float64).reshape(-1), k])


def check_snippet(code: str, exact: bool = False) -> None:
    load_all()
    want_cls, want_shape, want = _run(code, False)
    got_cls, got_shape, got = _run(code, True)
    assert fallback_counts() == {}, fallback_counts()
    assert (got_cls, got_shape) == (want_cls, want_shape)
    if exact:
        np.testing.assert_array_equal(got, want)
        return
    rtol = 1e-5 if want_cls == "single" else 1e-12
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                               rtol=rtol, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("code", ACCUMARRAY)
def test_accumarray_stays_on_device(device, code):
    # in-process and wgpu add in index order: bitwise the host result
    check_snippet(code, exact=code in EXACT)


def test_bad_subscripts_raise_matlab_error(device):
    load_all()
    s = Session(stdout=io.StringIO())
    s.eval("S = gpuArray([1; 2.5]);")
    with pytest.raises(Exception) as info:
        s.eval("accumarray(S, [1; 2]);")
    assert getattr(info.value, "identifier", "") == "MATLAB:accumarray:subsNonInteger"


INTEGER_MAX_MIN = [
    "r = max(I);", "r = min(I, [], 2);", "r = max(I, [], 'all');", "r = min(U(:));",
    "r = max(U, [], [1 2]);", "[r, k] = max(I);",
    "[r, k] = min(U, [], 2);", "r = max(int8(I) + int8(100), [], 'all');",
]


@pytest.mark.parametrize("code", INTEGER_MAX_MIN)
def test_integer_max_min_stay_on_device(device, code):
    check_snippet(code, exact=True)


MOVING = [
    "r = movmean(L, 9);", "r = movsum(L, 9);", "r = movmean(L, 4);", "r = movsum(L, [3 0]);",
    "r = movmean(L, [0 5], 'omitnan');", "r = movsum(L, 7, 'omitnan');",
    "r = movmean(M, 3);", "r = movsum(M, [1 2], 2);", "r = movmean(single(M), 5, 1);",
    "r = movmean(L, 9, 'Endpoints', 'shrink');", "r = movmean(M, 2.5, 2);",
]


@pytest.mark.parametrize("code", MOVING)
def test_moving_window_stays_on_device(device, code):
    check_snippet(code)


LONG_SORTS = [
    "r = sort(L);", "[r, k] = sort(L, 'descend');",
    "[r, k] = sort(round(L * 4));",   # ties: stable indices
    "[r, k] = sort(reshape(L, 2500, 2));",
    "[r, k] = sort(single(reshape(L, 2, 2500)), 2, 'descend');",
    "[r, k] = maxk(L, 5);", "[r, k] = mink(L', 7);",
    "r = median(L(1:4999));",
]


@pytest.mark.parametrize("code", LONG_SORTS)
def test_long_sorts_stay_on_device(device, code):
    check_snippet(code, exact=True)
