"""Interpolation: interp1, interp2 (spline: splines.py).

interp1 methods: linear (default), nearest (ties go to the larger sample),
previous, next, pchip/cubic (Fritsch-Carlson, as MATLAB's pchip), spline
(not-a-knot).  Points outside the samples give NaN unless ``'extrap'`` or an
extrapolation value is given; pchip and spline extrapolate by default.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text, scalar_value
from matfuse.runtime.builtins._reduction_args import ieee_quiet, numeric_input
from matfuse.runtime.builtins.piecewise_polynomial import make_pp
from matfuse.runtime.interpolation_columns import interp_columns
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import canonical, to_str

METHODS = ("linear", "nearest", "previous", "next", "pchip", "cubic", "spline", "makima")


def _float(v: Any, fn: str) -> np.ndarray:
    arr = numeric_input(v, fn)
    return arr.astype(np.complex128 if arr.dtype.kind == "c" else np.float64)


@builtin("interp1", category="interpolation", nargin=(2, 5))
@ieee_quiet
def interp1(*args: Any) -> Any:
    """1-D interpolation: interp1(x, v, xq, method, 'extrap' | value), interp1(v, xq)."""
    rest = list(args)
    method = "linear"
    extrap: Any = None
    explicit_extrap = False
    if len(rest) == 4 and is_text(rest[-1]) and to_str(rest[-1]).lower() == "pp":
        return _interp1_pp(rest[0], rest[1], rest[2])
    if rest and is_text(rest[-1]) and to_str(rest[-1]).lower() == "extrap":
        extrap, explicit_extrap = "extrap", True
        rest.pop()
    elif len(rest) >= 4 and not is_text(rest[-1]) and is_text(rest[-2]):
        extrap, explicit_extrap = scalar_value(rest.pop(), "interp1"), True
    if rest and is_text(rest[-1]):
        method = to_str(rest.pop()).lower().lstrip("*")
        if method not in METHODS:
            raise MatlabError("MATLAB:interp1:InvalidMethod", "Invalid interpolation method.")
    if not explicit_extrap and method in ("pchip", "cubic", "spline", "makima"):
        extrap = "extrap"
    if len(rest) == 2:
        v = _float(rest[0], "interp1")
        xq = _float(rest[1], "interp1")
        n = v.shape[0] if not (v.ndim == 2 and v.shape[0] == 1) else v.shape[1]
        x = np.arange(1.0, n + 1)
    elif len(rest) == 3:
        x = _float(rest[0], "interp1").reshape(-1, order="F")
        v = _float(rest[1], "interp1")
        xq = _float(rest[2], "interp1")
    else:
        raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
    if x.size < 2 or v.size == 0:
        raise MatlabError("MATLAB:interp1:NotEnoughPts",
                          "Interpolation requires at least two sample points for each dimension.")
    v_is_vector = v.ndim == 2 and min(v.shape) == 1
    ys = v.reshape(-1, 1, order="F") if v_is_vector else v.reshape(v.shape[0], -1, order="F")
    if ys.shape[0] != x.size:
        raise MatlabError("MATLAB:interp1:YInvalidNumRows",
                          "The grid vectors do not define a grid of points that match the given values.")
    if x.size < 2:
        raise MatlabError("MATLAB:interp1:NotEnoughPts",
                          "Interpolation requires at least two sample points for each dimension.")
    if np.any(np.diff(np.sort(x)) == 0):
        raise MatlabError("MATLAB:interp1:RepeatedValuesX", "The sample points must be unique.")
    q = xq.real.reshape(-1, order="F")
    out = interp_columns(x, ys, q, method, extrap)
    if any(_is_single(a) for a in args[:3] if not is_text(a)):
        # computed in double; single data gives single, as MATLAB's arithmetic
        out = out.astype(np.complex64 if out.dtype.kind == "c" else np.float32)
    if v_is_vector:
        return canonical(out.reshape(xq.shape, order="F"))
    if xq.ndim == 2 and min(xq.shape) == 1:
        return canonical(out.reshape((q.size,) + v.shape[1:], order="F"))
    return canonical(out.reshape(xq.shape + v.shape[1:], order="F"))


def _is_single(v: Any) -> bool:
    from matfuse.runtime.values import DeviceValue

    if isinstance(v, DeviceValue):
        return v.matlab_class == "single"
    return type(v) is np.ndarray and v.dtype in (np.float32, np.complex64)


def _interp1_pp(x_arg: Any, v_arg: Any, method_arg: Any) -> Any:
    """pp = interp1(x, v, method, 'pp'): the piecewise polynomial of the interpolant."""
    if not is_text(method_arg):
        raise MatlabError("MATLAB:interp1:InvalidMethod", "Invalid interpolation method.")
    method = to_str(method_arg).lower().lstrip("*")
    if method not in METHODS:
        raise MatlabError("MATLAB:interp1:InvalidMethod", "Invalid interpolation method.")
    if method == "next":
        raise MatlabError("MATLAB:interp1:ppOutput",
                          "The 'pp' output is not available for method 'next'.")
    x = _float(x_arg, "interp1").real.reshape(-1, order="F")
    v = _float(v_arg, "interp1")
    v_is_vector = v.ndim == 2 and min(v.shape) == 1
    ys = v.reshape(-1, 1, order="F") if v_is_vector else v.reshape(v.shape[0], -1, order="F")
    if x.size < 2 or ys.shape[0] != x.size:
        raise MatlabError("MATLAB:interp1:YInvalidNumRows",
                          "The grid vectors do not define a grid of points that match the given values.")
    order = np.argsort(x, kind="stable")
    x, ys = x[order], ys[order]
    if np.any(np.diff(x) == 0):
        raise MatlabError("MATLAB:interp1:RepeatedValuesX", "The sample points must be unique.")
    breaks, coefs = pp_pieces(x, ys, method)             # coefs: (pieces, k, order)
    pieces, k, degree = coefs.shape
    dim = (1,) if v_is_vector else tuple(v.shape[1:])
    return make_pp(breaks, coefs.reshape(pieces * k, degree), dim)


def pp_pieces(x: np.ndarray, ys: np.ndarray, method: str) -> tuple[np.ndarray, np.ndarray]:
    """Breaks and local coefficients (pieces, columns, order) of the interp1
    interpolant through sorted distinct ``x`` and columns ``ys``."""
    if method == "nearest":
        return np.concatenate([x[:1], (x[:-1] + x[1:]) / 2, x[-1:]]), ys[:, :, None]
    if method == "previous":
        return np.concatenate([x, [2 * x[-1] - x[-2]]]), ys[:, :, None]
    if method == "linear":
        slopes = np.diff(ys, axis=0) / np.diff(x)[:, None]
        return x, np.stack([slopes, ys[:-1]], axis=2)
    if ys.dtype.kind == "c":
        _, real_c = pp_pieces(x, np.ascontiguousarray(ys.real), method)
        _, imag_c = pp_pieces(x, np.ascontiguousarray(ys.imag), method)
        return x, real_c + 1j * imag_c
    import scipy.interpolate
    if method == "spline":
        fit = scipy.interpolate.CubicSpline(x, ys, axis=0, bc_type="not-a-knot")
    elif method == "makima" and x.size >= 3:
        fit = scipy.interpolate.Akima1DInterpolator(x, ys, axis=0, method="makima")
    else:
        fit = scipy.interpolate.PchipInterpolator(x, ys, axis=0)
    return x, np.transpose(fit.c, (1, 2, 0))


def _grid_values(xg: np.ndarray, yg: np.ndarray, v: np.ndarray, xq: np.ndarray,
                 yq: np.ndarray, method: str, extrapval: Any) -> np.ndarray:
    """Tensor-product interpolation of V (rows along yg, columns along xg) by
    the gridded engine (``cubic`` here is pchip along each dimension); points
    outside the grid, or with a NaN coordinate, get extrapval."""
    from matfuse.runtime.gridded_interpolant import evaluate

    rows, cols = np.argsort(yg, kind="stable"), np.argsort(xg, kind="stable")
    grids = [yg[rows], xg[cols]]
    data = v[np.ix_(rows, cols)]
    qx, qy = xq.reshape(-1), yq.reshape(-1)
    bad = np.isnan(qx) | np.isnan(qy)
    points = np.stack([np.where(bad, grids[0][0], qy), np.where(bad, grids[1][0], qx)], axis=1)
    engine_method = "pchip" if method == "cubic" else method
    out = evaluate(grids, data, points, engine_method, engine_method)
    outside = bad | (qx < xg.min()) | (qx > xg.max()) | (qy < yg.min()) | (qy > yg.max())
    if np.any(outside):
        out = out.astype(np.result_type(out.dtype, np.asarray(extrapval).dtype))
        out[outside] = extrapval
    return out.reshape(xq.shape)


def _query_grid(xq: np.ndarray, yq: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Query points: vectors of different orientations (or a scalar with an
    array) expand to a grid, as MATLAB does."""
    if xq.shape == yq.shape:
        return xq, yq
    if xq.size == 1:
        return np.full(yq.shape, xq.reshape(-1)[0]), yq
    if yq.size == 1:
        return xq, np.full(xq.shape, yq.reshape(-1)[0])
    if xq.ndim == 2 and yq.ndim == 2 and min(xq.shape) == 1 and min(yq.shape) == 1:
        return np.meshgrid(xq.reshape(-1), yq.reshape(-1))
    raise MatlabError("MATLAB:interp2:XqYqSizeMismatch", "Xq and Yq must be the same size.")


@builtin("interp2", category="interpolation", nargin=(1, 7))
@ieee_quiet
def interp2(*args: Any) -> Any:
    """2-D gridded interpolation: interp2(X, Y, V, Xq, Yq, method, extrapval),
    interp2(V, Xq, Yq), interp2(V, k) (k-times refined grid, k = 1 by
    default); methods linear, nearest, cubic, spline, pchip, makima."""
    rest = list(args)
    extrapval: Any = np.nan
    if len(rest) >= 4 and not is_text(rest[-1]) and is_text(rest[-2]):
        ev = numeric_input(rest.pop(), "interp2").reshape(-1)
        extrapval = complex(ev[0]) if ev.dtype.kind == "c" else float(ev[0])
    method = "linear"
    if rest and is_text(rest[-1]):
        method = to_str(rest.pop()).lower().lstrip("*")
    if method not in ("linear", "nearest", "cubic", "spline", "pchip", "makima"):
        raise MatlabError("MATLAB:interp2:InvalidMethod", "Invalid interpolation method.")
    if len(rest) in (1, 2):
        v = _float(rest[0], "interp2")
        k = 1 if len(rest) == 1 else int(scalar_value(rest[1], "interp2"))
        xg = np.arange(1.0, v.shape[1] + 1)
        yg = np.arange(1.0, v.shape[0] + 1)
        step = 2.0 ** -k
        xq, yq = np.meshgrid(np.arange(1.0, v.shape[1] + step / 2, step),
                             np.arange(1.0, v.shape[0] + step / 2, step))
    elif len(rest) == 3:
        v = _float(rest[0], "interp2")
        xg = np.arange(1.0, v.shape[1] + 1)
        yg = np.arange(1.0, v.shape[0] + 1)
        xq, yq = _float(rest[1], "interp2"), _float(rest[2], "interp2")
    elif len(rest) == 5:
        xa, ya = _float(rest[0], "interp2"), _float(rest[1], "interp2")
        v = _float(rest[2], "interp2")
        xg = xa[0, :] if xa.ndim == 2 and xa.shape[0] > 1 and xa.shape == v.shape else xa.reshape(-1, order="F")
        yg = ya[:, 0] if ya.ndim == 2 and ya.shape[1] > 1 and ya.shape == v.shape else ya.reshape(-1, order="F")
        xq, yq = _float(rest[3], "interp2"), _float(rest[4], "interp2")
    else:
        raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
    if v.ndim != 2 or min(v.shape) < 2:
        raise MatlabError("MATLAB:interp2:NotEnoughPts",
                          "Interpolation requires at least two sample points in each dimension.")
    if xg.size != v.shape[1] or yg.size != v.shape[0]:
        raise MatlabError("MATLAB:interp2:XYLengthMismatch",
                          "The lengths of X and Y must match the size of V.")
    xq, yq = _query_grid(xq.real, yq.real)
    return canonical(_grid_values(xg.real, yg.real, v, xq, yq, method, extrapval))
