"""Compare a device run's outcome with the reference's under ``bounds``."""

from __future__ import annotations

import numpy as np

from tests.differential import bounds
from tests.differential.programs import Program
from tests.differential.runner import Outcome, Result


def mismatches(program: Program, want: Outcome, got: Outcome) -> list[str]:
    """Why ``got`` differs from ``want`` (empty: it agrees)."""
    problems = []
    if want.error != got.error:
        problems.append(f"error {got.error!r} ({got.message}) where the reference gives "
                        f"{want.error!r} ({want.message})")
    for name, w in want.results.items():
        g = got.results.get(name)
        if g is None:
            problems.append(f"{name}: missing")
            continue
        problems += [f"{name}: {p}" for p in _compare(program, name, w, g)]
    for name in got.results:
        if name not in want.results:
            problems.append(f"{name}: assigned, but not by the reference")
    return problems


def _compare(program: Program, name: str, w: Result, g: Result) -> list[str]:
    if g.complex != w.complex and (g.cls, g.shape) == (w.cls, w.shape):
        # MATLAB stores a result whose imaginary parts are all zero as real;
        # the device keeps it complex (deciding would cost a read-back)
        extra = g.data if g.complex else w.data
        if not np.any(extra.imag):
            g = Result(g.cls, g.shape, False, g.data.real if g.complex else g.data)
            w = Result(w.cls, w.shape, False, w.data.real if w.complex else w.data)
        else:
            # Whether the imaginary parts come out exactly zero depends on
            # rounding (x .\ x with and without a fused multiply-add): the
            # real side compares as complex with zero imaginary parts, every
            # part within the ops' bound.
            g = Result(g.cls, g.shape, True, g.data.astype(np.result_type(g.data, np.complex64)))
            w = Result(w.cls, w.shape, True, w.data.astype(np.result_type(w.data, np.complex64)))
    if (g.cls, g.shape, g.complex) != (w.cls, w.shape, w.complex):
        return [f"class/size/complexity {(g.cls, g.shape, g.complex)} != "
                f"{(w.cls, w.shape, w.complex)}"]
    if w.data.dtype.kind not in "fc":
        if not np.array_equal(g.data, w.data):
            return [_first_difference(g.data, w.data, np.not_equal(g.data, w.data))]
        return []
    if w.complex:
        return (_compare_real(program, name, g.data.real, w.data.real, w.data)
                + _compare_real(program, name, g.data.imag, w.data.imag, w.data))
    return _compare_real(program, name, g.data, w.data, w.data)


def _compare_real(program: Program, name: str, g: np.ndarray, w: np.ndarray,
                  whole: np.ndarray) -> list[str]:
    ops = program.ops_of(name)
    # a double result cast from single work carries single's rounding error
    single = w.dtype in (np.float32,) or (
        "double" in ops and (program.has_single_input() or "single" in ops))
    info = np.finfo(np.float32 if single else np.float64)
    g64, w64 = g.astype(np.float64), w.astype(np.float64)
    nan_w, nan_g = np.isnan(w64), np.isnan(g64)
    bad = nan_w != nan_g
    inf_w = np.isinf(w64)
    bad |= inf_w & (g64 != w64)
    bad |= np.isinf(g64) & ~inf_w & ~nan_w
    ulps = bounds.ulps_of(ops, program.largest_input(), single, program.has_complex_input())
    scale = np.abs(np.abs(whole).astype(np.float64))
    if bounds.cancels(ops):
        scale = np.maximum(scale, program.magnitude())
    finite = np.isfinite(w64) & np.isfinite(g64)
    with np.errstate(all="ignore"):
        if single and "power" in ops:
            ulps = ulps + bounds.SINGLE_POWER_ULPS_PER_OCTAVE * np.abs(np.log2(scale + 1e-300))
        limit = ulps * float(info.eps) * scale + np.maximum(ulps, 1.0) * float(info.tiny)
        bad |= finite & (np.abs(g64 - w64) > limit)
    if bad.any():
        return [_first_difference(g, w, bad) + f" (bound {np.max(ulps):g} ulps, ops {ops})"]
    return []


def _first_difference(g: np.ndarray, w: np.ndarray, bad: np.ndarray) -> str:
    k = int(np.flatnonzero(bad.reshape(-1, order="F"))[0])
    gv, wv = g.reshape(-1, order="F")[k], w.reshape(-1, order="F")[k]
    return f"{int(bad.sum())} element(s) differ; first at linear index {k + 1}: {gv!r} != {wv!r}"
