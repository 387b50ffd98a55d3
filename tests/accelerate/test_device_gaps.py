"""Builtins that used to leave the device (accumarray, long sorts, maxk/mink,
movmean/movsum, integer max/min) run there: each snippet runs on host data
and on gpuArrays; results agree in class, size and values, and the device
run makes no host fallback."""

from __future__ import annotations

import io
from typing import Any

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


def check_snippet(code: str, exact: bool = False, rtol: float | None = None) -> None:
    load_all()
    want_cls, want_shape, want = _run(code, False)
    got_cls, got_shape, got = _run(code, True)
    assert fallback_counts() == {}, fallback_counts()
    assert (got_cls, got_shape) == (want_cls, want_shape)
    if exact:
        np.testing.assert_array_equal(got, want)
        return
    if rtol is None:
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


SOLVES = [
    "r = (M(:, 1:6)' * M(:, 1:6) + eye(6)) \\ M(:, 7:8);",
    "r = mldivide(M(:, 1:6) + 3 * eye(6), ones(6, 1));",
    "r = single(M(:, 1:6) + 3 * eye(6)) \\ single(M(:, 9));",
    "r = (M(1:2, 1:2) + [0 NaN; 0 0]) \\ M(1:2, 3);",
    "r = (1 ./ ((1:6)' + (1:6) - 1) + 0 * M(:, 1:6)) \\ M(:, 10);",
    "r = [ones(6, 1) (1:6)' (1:6)'.^2 / 10 M(:, 1)] \\ M(:, 9:10);",
    "r = [ones(6, 1) (1:6)'] \\ M(:, 5);",
    "r = single([ones(6, 1) (1:6)' / 6 M(:, 2)]) \\ single(M(:, 7));",
]


@pytest.mark.parametrize("code", SOLVES)
def test_square_solve_stays_on_device(device, code):
    # solvers differ in their order of operations: agreement to cond * eps
    if "1 ./" in code:
        check_snippet(code, rtol=1e-7)     # hilb(6): cond 1.5e7
    else:
        check_snippet(code, rtol=1e-4 if "single" in code else 1e-11)


_WARNING_TEXT = {"MATLAB:nearlySingularMatrix": "Warning: Matrix is close to singular",
                 "MATLAB:singularMatrix": "Warning: Matrix is singular to working precision.",
                 "MATLAB:rankDeficientMatrix": "Warning: Rank deficient, rank = 2"}


def _warning_lines(code: str, on_device: bool, capsys: Any) -> list[str]:
    s = Session(stdout=io.StringIO())
    s.eval(SETUP + ("M = gpuArray(M);" if on_device else ""))
    capsys.readouterr()
    s.eval(code)
    return [line for line in capsys.readouterr().err.splitlines() if line.startswith("Warning")]


@pytest.mark.parametrize("code,ident", [
    ("r = (1 ./ ((1:12)' + (1:12) - 1) + 0 * M(1, 1)) \\ ones(12, 1);",
     "MATLAB:nearlySingularMatrix"),
    ("r = (M(1:2, 1:2) * 0 + [1 2; 2 4]) \\ [1; 1];", "MATLAB:singularMatrix"),
    ("r = [M(:, 1:2) M(:, 1)] \\ M(:, 3);", "MATLAB:rankDeficientMatrix"),
])
def test_solve_warnings_match_host(device, capsys, code, ident):
    """The host's warnings (the RCOND digits of a matrix this ill-conditioned
    may differ: the inverse's norm is itself inexact); a singular matrix and a
    rank-deficient least squares problem are left to the host (MATLAB's
    Inf/NaN pattern, the host's rank decision): one counted fallback."""
    load_all()
    want = _warning_lines(code, False, capsys)
    reset_fallback_counts()
    got = _warning_lines(code, True, capsys)
    assert len(want) == len(got) == 1
    assert want[0].startswith(_WARNING_TEXT[ident]) and got[0].startswith(_WARNING_TEXT[ident])
    on_host = ident != "MATLAB:nearlySingularMatrix"
    assert fallback_counts() == ({"binary:\\": 1} if on_host else {})


def test_solve_of_order_300_is_split_into_short_dispatches(device):
    """Order 300 once came back half-solved from one long dispatch (lavapipe)."""
    n = 300
    check_snippet(f"A = reshape(sin(1:{n * n}), {n}, {n}) + {n} * eye({n}) + 0 * M(1, 1); "
                  f"r = A \\ ones({n}, 1);")
