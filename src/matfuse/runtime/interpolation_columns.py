"""One-dimensional interpolation of the columns of an array: the engine of
``interp1`` and of the gridded interpolant's separable methods.

Pure NumPy/SciPy: points outside the samples are NaN (or the extrapolation
value), complex columns interpolate their real and imaginary parts apart,
and ``spline`` is MATLAB's not-a-knot cubic spline.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def interp_columns(x: np.ndarray, ys: np.ndarray, xq: np.ndarray, method: str,
                   extrap: Any) -> np.ndarray:
    """Interpolate each column of ``ys`` (n x k) at points ``xq`` (m,) -> (m, k)."""
    import scipy.interpolate
    order = np.argsort(x, kind="stable")
    x, ys = x[order], ys[order]
    # Complex values interpolate their real and imaginary parts separately,
    # so a point outside the samples is NaN in both parts.
    fill = complex(np.nan, np.nan) if ys.dtype.kind == "c" else np.nan
    out = np.full((xq.size, ys.shape[1]), fill, dtype=np.result_type(ys.dtype, np.float64))
    inside = (xq >= x[0]) & (xq <= x[-1])
    use_all = extrap == "extrap"
    targets = np.ones(xq.size, dtype=bool) if use_all else inside
    q = xq[targets]
    if method == "linear":
        idx = np.clip(np.searchsorted(x, q, side="right") - 1, 0, x.size - 2)
        t = ((q - x[idx]) / (x[idx + 1] - x[idx]))[:, None]
        vals = ys[idx] + t * (ys[idx + 1] - ys[idx])
    elif method == "nearest":
        idx = np.clip(np.searchsorted(x, q, side="right") - 1, 0, x.size - 1)
        upper = np.minimum(idx + 1, x.size - 1)
        pick_upper = (q - x[idx]) >= (x[upper] - q)
        vals = ys[np.where(pick_upper, upper, idx)]
    elif method == "previous":
        # 'extrap' continues the first sample to the left (as MATLAB's 'pp' form)
        idx = np.searchsorted(x, q, side="right") - 1
        vals = np.where((idx >= 0)[:, None] | use_all, ys[np.clip(idx, 0, x.size - 1)], fill)
    elif method == "next":
        idx = np.searchsorted(x, q, side="left")
        vals = np.where((idx < x.size)[:, None] | use_all, ys[np.clip(idx, 0, x.size - 1)], fill)
    elif method in ("pchip", "cubic", "makima") and ys.dtype.kind == "c":
        vals = _real_fit(x, ys.real, q, method) + 1j * _real_fit(x, ys.imag, q, method)
    elif method in ("pchip", "cubic", "makima"):
        vals = _real_fit(x, ys, q, method)
    else:
        vals = spline_values(x, ys, q)
    out[targets] = vals
    if not use_all and extrap is not None:
        out[~inside] = extrap
    return out


def _real_fit(x: np.ndarray, ys: np.ndarray, q: np.ndarray, method: str) -> np.ndarray:
    """pchip/cubic (Fritsch-Carlson) or makima through real columns ``ys``."""
    import scipy.interpolate
    if method == "makima" and x.size >= 3:
        return scipy.interpolate.Akima1DInterpolator(x, ys, axis=0, method="makima", extrapolate=True)(q)
    return scipy.interpolate.PchipInterpolator(x, ys, axis=0, extrapolate=True)(q)


def spline_values(x: np.ndarray, ys: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Not-a-knot cubic spline through (x, ys) evaluated at q (MATLAB's spline)."""
    import scipy.interpolate
    if x.size == 2:
        t = ((q - x[0]) / (x[1] - x[0]))[:, None]
        return ys[0] + t * (ys[1] - ys[0])
    # three points: scipy's not-a-knot spline is the parabola through them, as MATLAB's
    if ys.dtype.kind == "c":
        fit = scipy.interpolate.CubicSpline(x, ys.real, axis=0, bc_type="not-a-knot")
        fit_imag = scipy.interpolate.CubicSpline(x, ys.imag, axis=0, bc_type="not-a-knot")
        return fit(q) + 1j * fit_imag(q)
    return scipy.interpolate.CubicSpline(x, ys, axis=0, bc_type="not-a-knot")(q)
