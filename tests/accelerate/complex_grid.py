"""Special and ordinary complex values, and distances in ulps, for checking
complex functions against NumPy (tests only)."""

from __future__ import annotations

import numpy as np


def special_grid(dtype: str, subnormal: bool = True) -> np.ndarray:
    """Every pair of parts from zeros, infinities, NaN, tiny (and subnormal),
    ordinary, near multiples of pi/2, large (where exp overflows alone) and
    near the largest values, and near |z| = 1."""
    single = dtype == "complex64"
    parts = [0.0, -0.0, 1.0, -2.5, 3.0, np.nan, np.inf, -np.inf, 1e-30 if single else 1e-300, 1e-8,
             np.pi, -np.pi / 2, 3 * np.pi, 30.0, 100.0, -720.0, 0.6, 0.8,
             1e9 if single else 1e22, 3e38 if single else 1.5e308]
    if subnormal:
        parts += [-1e-44] if single else [-1e-310]
    re, im = np.meshgrid(parts, parts)
    z = np.empty(re.size, dtype)
    with np.errstate(over="ignore"):
        z.real, z.imag = re.ravel(), im.ravel()
    return z


def ulp_errors(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Per element the larger of the parts' distances in ulps of the
    expected part (at least the smallest normal's); infinite where NaN,
    infinities or zeros differ (the sign of a zero is not compared). A
    subnormal expected part met by a zero is no error: drivers that flush
    subnormal results (NVIDIA's Vulkan, single) give 0 there."""
    real = want.real.dtype
    errors = np.zeros(want.shape)
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        g64, w64 = g.astype(np.float64), w.astype(np.float64)
        unit = np.spacing(np.maximum(np.abs(w), np.finfo(real).tiny).astype(real)).astype(np.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            finite = np.isfinite(w64) & np.isfinite(g64)
            e = np.where(finite, np.abs(g64 - w64) / unit, 0.0)
        e = np.where((g64 == 0) & (np.abs(w64) < np.finfo(real).tiny), 0.0, e)
        same_special = (np.isnan(w64) & np.isnan(g64)) | (~np.isnan(w64) & (g64 == w64))
        e = np.where(~finite & ~same_special, np.inf, e)
        errors = np.maximum(errors, e)
    return errors
