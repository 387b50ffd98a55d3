"""Cubic spline interpolation: spline(x, y) as a piecewise polynomial and
spline(x, y, xq) as values.

As MATLAB's spline: not-a-knot end conditions, or clamped end slopes when y
has two more values than x (the first and last); y may be a matrix whose
columns are the values at the sites (vector-valued data, one row per
component); data points with a NaN value are left out; two sites give the
straight line and three the parabola through them, each as one piece.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._reduction_args import ieee_quiet, numeric_input
from matfuse.runtime.builtins.piecewise_polynomial import evaluate_pp, make_pp
from matfuse.runtime.interpolation_columns import spline_values
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import canonical


def _float(v: Any) -> np.ndarray:
    arr = numeric_input(v, "spline")
    return arr.astype(np.complex128 if arr.dtype.kind == "c" else np.float64)


def _sites_and_values(x: Any, y: Any) -> tuple[np.ndarray, np.ndarray, bool, tuple[int, ...]]:
    """Sorted sites, values as (components, sites[+2]), whether the ends are
    clamped slopes, and the size of one value (MATLAB's pp dim)."""
    xv = _float(x).reshape(-1, order="F")
    yv = _float(y)
    if xv.size < 2 or np.any(~np.isfinite(xv.real)):
        raise MatlabError("MATLAB:spline:NotEnoughPts", "There should be at least two data points.")
    if xv.dtype.kind == "c":
        raise MatlabError("MATLAB:spline:XNotReal", "The data sites should be real.")
    if yv.ndim == 2 and min(yv.shape) == 1:
        values, dim = yv.reshape(1, -1, order="F"), (1,)
    else:
        dim = yv.shape[:-1]
        values = yv.reshape(int(np.prod(dim)), yv.shape[-1], order="F")
    n = xv.size
    if values.shape[1] not in (n, n + 2):
        raise MatlabError("MATLAB:spline:XYLengthMismatch",
                          "The number of sites, X, is incompatible with the number of values, Y.")
    clamped = values.shape[1] == n + 2
    order = np.argsort(xv, kind="stable")
    xv = xv[order]
    if np.any(np.diff(xv) == 0):
        raise MatlabError("MATLAB:spline:RepeatedSites", "The data sites should be distinct.")
    inner = values[:, 1:-1] if clamped else values
    inner = inner[:, order]
    if not clamped:
        keep = ~np.any(np.isnan(inner), axis=0)
        if not keep.all():
            xv, inner = xv[keep], inner[:, keep]
            if xv.size < 2:
                raise MatlabError("MATLAB:spline:NotEnoughPts",
                                  "There should be at least two data points.")
    values = np.concatenate([values[:, :1], inner, values[:, -1:]], axis=1) if clamped else inner
    return xv, values, clamped, dim


def _coefficients(xv: np.ndarray, values: np.ndarray, clamped: bool) -> tuple[np.ndarray, np.ndarray]:
    """(breaks, coefs) of the spline: coefs row p*d + i is component i of piece p."""
    import scipy.interpolate
    if values.dtype.kind == "c":
        breaks, re = _coefficients(xv, values.real, clamped)
        _, im = _coefficients(xv, values.imag, clamped)
        return breaks, re + 1j * im
    d, n = values.shape[0], xv.size
    if not clamped and n == 2:
        slope = (values[:, 1] - values[:, 0]) / (xv[1] - xv[0])
        return xv, np.stack([slope, values[:, 0]], axis=1)
    if not clamped and n == 3:
        dx = np.diff(xv)
        divdif = np.diff(values, axis=1) / dx
        c2 = (divdif[:, 1] - divdif[:, 0]) / (xv[2] - xv[0])
        c1 = divdif[:, 0] - c2 * dx[0]
        return xv[[0, 2]], np.stack([c2, c1, values[:, 0]], axis=1)
    if clamped:
        fit = scipy.interpolate.CubicSpline(xv, values[:, 1:-1], axis=1,
                                            bc_type=((1, values[:, 0]), (1, values[:, -1])))
    else:
        fit = scipy.interpolate.CubicSpline(xv, values, axis=1, bc_type="not-a-knot")
    c = np.asarray(fit.c)                      # (4, pieces, d)
    return xv, c.transpose(1, 2, 0).reshape((n - 1) * d, 4)


@builtin("spline", category="interpolation", nargin=(2, 3))
@ieee_quiet
def spline(x: Any, y: Any, xq: Any = None) -> Any:
    """Cubic spline: pp = spline(x, y), or its values at xq, spline(x, y, xq)."""
    xv, values, clamped, dim = _sites_and_values(x, y)
    if xq is not None and dim == (1,) and not clamped and xv.size > 3:
        q = _float(xq)
        out = spline_values(xv, values[0].reshape(-1, 1), q.reshape(-1, order="F"))[:, 0]
        return canonical(np.asarray(out).reshape(q.shape, order="F"))
    breaks, coefs = _coefficients(xv, values, clamped)
    if xq is None:
        return make_pp(breaks, coefs, dim)
    q = _float(xq)
    if q.dtype.kind == "c":
        raise MatlabError("MATLAB:ppval:ComplexInput", "Evaluation points must be real.")
    vals = evaluate_pp(breaks, coefs, int(np.prod(dim)), q.reshape(-1, order="F"))
    if dim == (1,):
        return canonical(vals.reshape(q.shape, order="F"))
    q_shape = (q.size,) if q.ndim == 2 and min(q.shape) == 1 else q.shape
    return canonical(vals.reshape(tuple(dim) + q_shape, order="F"))
