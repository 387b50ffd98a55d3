"""Interpolation on a rectilinear grid in any number of dimensions: the
engine of ``griddedInterpolant`` and ``interpn`` (NDGRID layout: ``V(i,j,...)``
sits at ``(x1(i), x2(j), ...)``).

Local methods (``linear``, ``nearest``, ``previous``, ``next``, ``cubic``)
are tensor products of per-dimension (index, weight) stencils, so scattered
query points cost a few gathers each. ``cubic`` is MATLAB's cubic
convolution (``v5cubic``: Hermite with central-difference slopes, on
uniform grids). ``spline`` is a tensor-product not-a-knot B-spline; ``pchip``
and ``makima`` (not linear in the data) apply the 1-D method one dimension at
a time over the query coordinates' unique values, in chunks of points; on a
grid of query vectors every global method runs one dimension at a time. Extrapolation uses ``extrap_method``
(``'none'`` gives NaN) outside the grid.
"""

from __future__ import annotations

from itertools import product
import numpy as np

from matfuse.errors import MatlabError

LOCAL_METHODS = ("linear", "nearest", "previous", "next", "cubic")
GLOBAL_METHODS = ("spline", "pchip", "makima")
METHODS = LOCAL_METHODS + GLOBAL_METHODS
_CHUNK = 32


def _stencil(x: np.ndarray, q: np.ndarray, method: str) -> tuple[np.ndarray, np.ndarray]:
    """Per query coordinate: grid indices (m x s) and weights (m x s)."""
    n = x.size
    if n == 1:
        return np.zeros((q.size, 1), dtype=np.intp), np.ones((q.size, 1))
    if method == "nearest":
        i = np.clip(np.searchsorted(x, q, side="right") - 1, 0, n - 1)
        upper = np.minimum(i + 1, n - 1)
        pick = np.where((q - x[i]) >= (x[upper] - q), upper, i)
        return pick[:, None], np.ones((q.size, 1))
    if method == "previous":
        i = np.searchsorted(x, q, side="right") - 1
        return np.clip(i, 0, n - 1)[:, None], np.where(i >= 0, 1.0, np.nan)[:, None]
    if method == "next":
        i = np.searchsorted(x, q, side="left")
        return np.clip(i, 0, n - 1)[:, None], np.where(i < n, 1.0, np.nan)[:, None]
    i = np.clip(np.searchsorted(x, q, side="right") - 1, 0, n - 2)
    t = (q - x[i]) / (x[i + 1] - x[i])
    if method == "linear" or n < 3:
        return np.stack([i, i + 1], axis=1), np.stack([1 - t, t], axis=1)
    # cubic convolution (a = -1/2); the ends use MATLAB's extrapolated samples
    weights = np.stack([((-t + 2) * t - 1) * t / 2, ((3 * t - 5) * t * t + 2) / 2,
                        ((-3 * t + 4) * t + 1) * t / 2, (t - 1) * t * t / 2], axis=1)
    return np.stack([i - 1, i, i + 1, i + 2], axis=1), weights


def _padded_for_cubic(v: np.ndarray, axis: int) -> np.ndarray:
    """``v`` with one extrapolated sample at each end of ``axis``
    (``y0 = 3 y1 - 3 y2 + y3``), so cubic stencils index from -1."""
    if v.shape[axis] < 3:
        return v
    ends = np.take(v, [0, 1, 2, -1, -2, -3], axis=axis)
    first = 3 * np.take(ends, [0], axis=axis) - 3 * np.take(ends, [1], axis=axis) \
        + np.take(ends, [2], axis=axis)
    last = 3 * np.take(ends, [3], axis=axis) - 3 * np.take(ends, [4], axis=axis) \
        + np.take(ends, [5], axis=axis)
    return np.concatenate([first, v, last], axis=axis)


def _local(grids: list[np.ndarray], v: np.ndarray, points: np.ndarray, method: str) -> np.ndarray:
    d = len(grids)
    stencils = [_stencil(g, points[:, k], method) for k, g in enumerate(grids)]
    data = v
    offset = [0] * d
    if method == "cubic":
        for k in range(d):
            if grids[k].size >= 3:
                data = _padded_for_cubic(data, k)
                offset[k] = 1
    out = np.zeros(points.shape[0], dtype=np.result_type(v.dtype, np.float64))
    for combo in product(*(range(s[0].shape[1]) for s in stencils)):
        index = tuple(stencils[k][0][:, c] + offset[k] for k, c in enumerate(combo))
        weight = np.ones(points.shape[0])
        for k, c in enumerate(combo):
            weight = weight * stencils[k][1][:, c]
        out = out + weight * data[index]
    return out


def _along(grid: np.ndarray, values: np.ndarray, q: np.ndarray, method: str) -> np.ndarray:
    """1-D ``method`` along the first axis of ``values`` at ``q`` (extrapolating)."""
    from matfuse.runtime.interpolation_columns import interp_columns

    flat = values.reshape(values.shape[0], -1)
    if grid.size == 1:
        out = np.repeat(flat[:1], q.size, axis=0)
    else:
        one_d = "linear" if grid.size == 2 else "spline" if method == "spline" and grid.size == 3 \
            else method
        out = interp_columns(grid, flat, q, one_d, "extrap")
    return out.reshape((q.size,) + values.shape[1:])


def _spline(grids: list[np.ndarray], v: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Tensor-product not-a-knot spline (MATLAB's ``spline`` in each
    dimension; two points give a line, three a parabola): B-spline
    coefficients solved one axis at a time, then evaluated at the points."""
    from scipy.interpolate import NdBSpline, make_interp_spline

    coefs = v
    knots, degrees = [], []
    for axis, g in enumerate(grids):
        degree = min(3, g.size - 1)
        fit = make_interp_spline(g, coefs, k=degree, axis=axis)
        coefs = np.moveaxis(fit.c, 0, axis)
        knots.append(fit.t)
        degrees.append(degree)
    if coefs.dtype.kind == "c":
        real = NdBSpline(tuple(knots), coefs.real.copy(), tuple(degrees), extrapolate=True)
        imag = NdBSpline(tuple(knots), coefs.imag.copy(), tuple(degrees), extrapolate=True)
        return real(points) + 1j * imag(points)
    return NdBSpline(tuple(knots), coefs, tuple(degrees), extrapolate=True)(points)


def _global(grids: list[np.ndarray], v: np.ndarray, points: np.ndarray, method: str) -> np.ndarray:
    if method == "spline":
        return _spline(grids, v, points)
    out = np.empty(points.shape[0], dtype=np.result_type(v.dtype, np.float64))
    for start in range(0, points.shape[0], _CHUNK):
        chunk = points[start:start + _CHUNK]
        data = v
        inverse = []
        for k in reversed(range(len(grids))):
            unique, inv = np.unique(chunk[:, k], return_inverse=True)
            moved = np.moveaxis(data, k, 0)
            data = np.moveaxis(_along(grids[k], moved, unique, method), 0, k)
            inverse.insert(0, inv.reshape(-1))
        out[start:start + chunk.shape[0]] = data[tuple(inverse)]
    return out


def _separable(grids: list[np.ndarray], v: np.ndarray, queries: list[np.ndarray],
               method: str) -> np.ndarray:
    """A global method on the full grid of query vectors, one axis at a time."""
    data = v
    for k in reversed(range(len(grids))):
        moved = np.moveaxis(data, k, 0)
        data = np.moveaxis(_along(grids[k], moved, queries[k], method), 0, k)
    return data


def evaluate(grids: list[np.ndarray], v: np.ndarray, points: np.ndarray, method: str,
             extrap: str) -> np.ndarray:
    """Values at ``points`` (m x d) of the data ``v`` on ``grids``."""
    if points.shape[0] == 0:
        return np.zeros(0)
    if v.ndim < len(grids):
        v = v.reshape(v.shape + (1,) * (len(grids) - v.ndim))
    bad = np.any(np.isnan(points), axis=1)
    safe = np.where(np.isnan(points), np.array([g[0] for g in grids]), points)
    inside = np.all([(safe[:, k] >= g[0]) & (safe[:, k] <= g[-1])
                     for k, g in enumerate(grids)], axis=0)
    out = _run(grids, v, safe, method)
    if not np.all(inside):
        outside = ~inside
        if extrap == "none":
            out[outside] = np.nan
        elif extrap != method:
            out[outside] = _run(grids, v, safe[outside], extrap)
    out[bad] = np.nan
    return out


def _run(grids: list[np.ndarray], v: np.ndarray, points: np.ndarray, method: str) -> np.ndarray:
    if method in LOCAL_METHODS:
        return _local(grids, v, points, method)
    return _global(grids, v, points, method)


def evaluate_grid(grids: list[np.ndarray], v: np.ndarray, queries: list[np.ndarray],
                  method: str, extrap: str) -> np.ndarray:
    """Values on the full grid of the query vectors (NDGRID shape)."""
    shape = tuple(q.size for q in queries)
    if method in GLOBAL_METHODS and extrap == method and v.ndim == len(grids) and \
            not any(np.isnan(q).any() for q in queries):
        return _separable(grids, v, queries, method).reshape(shape)
    mesh = np.meshgrid(*queries, indexing="ij")
    points = np.stack([m.reshape(-1, order="F") for m in mesh], axis=1)
    return evaluate(grids, v, points, method, extrap).reshape(shape, order="F")


def check_grid(grids: list[np.ndarray], v: np.ndarray, method: str) -> None:
    """MATLAB's checks: ascending unique grid vectors matching ``size(V)``,
    enough points for the method, uniform spacing for ``cubic``."""
    if v.ndim > max(len(grids), 1) and not (len(grids) == 1 and v.ndim == 1):
        raise MatlabError("MATLAB:griddedInterpolant:CompVecValueMismatchErrId",
                          "Grid vectors do not define a grid of points that match the given "
                          "values.")
    for k, g in enumerate(grids):
        if np.any(np.diff(g) <= 0):
            raise MatlabError("MATLAB:griddedInterpolant:NonMonotonicCompVecsErrId",
                              "Grid vectors must contain unique points.")
        size = v.shape[k] if k < v.ndim else 1
        if g.size != size:
            raise MatlabError("MATLAB:griddedInterpolant:CompVecValueMismatchErrId",
                              "Grid vectors do not define a grid of points that match the "
                              "given values.")
        need = 1 if method in ("nearest", "previous", "next") else 2
        if g.size < need:
            raise MatlabError("MATLAB:griddedInterpolant:DegenerateGridErrId",
                              "Interpolation requires at least two sample points for each "
                              "grid dimension.")
        if method == "cubic" and g.size > 2:
            step = np.diff(g)
            if np.max(np.abs(step - step[0])) > 1e-8 * max(abs(step[0]), 1.0) * g.size:
                raise MatlabError("MATLAB:griddedInterpolant:BadCubicInterpErrId",
                                  "The 'cubic' method requires the grid to have a uniform "
                                  "spacing.")
