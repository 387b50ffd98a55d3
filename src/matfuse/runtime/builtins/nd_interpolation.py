"""``interpn``: interpolation of N-D gridded data (NDGRID layout).

``interpn(X1,...,Xn, V, Xq1,...,Xqn)`` with grid vectors or full NDGRID
arrays, ``interpn(V, Xq1,...,Xqn)`` on the grid ``1:size(V,k)``,
``interpn(V)`` / ``interpn(V, k)`` on a grid refined ``k`` times (once by
default), then ``method`` and ``extrapval`` (NaN by default). Query vectors
of different sizes are grid vectors (the result is their NDGRID); descending
sample grids are read in reverse. Complex values interpolate their real and
imaginary parts alike.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._limits import check_allocation
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.gridded_interpolant import METHODS, check_grid, evaluate
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import canonical, class_of, to_str


def _array(v: Any) -> np.ndarray:
    if type(v) is float or type(v) is bool:
        return np.array([[float(v)]])
    if type(v) is complex:
        return np.array([[v]])
    if type(v) is np.ndarray and v.dtype.kind in "biufc":
        return v.astype(np.complex128 if v.dtype.kind == "c" else np.float64)
    raise MatlabError("MATLAB:interpn:InvalidInput",
                      f"Inputs must be numeric, not {class_of(v)}.")


def _real(v: np.ndarray) -> np.ndarray:
    if v.dtype.kind == "c":
        raise MatlabError("MATLAB:interpn:ComplexGrid", "Grid and query points must be real.")
    return v


def _dims(v: np.ndarray) -> int:
    return 1 if v.ndim == 2 and min(v.shape) == 1 else v.ndim


def _grids_fit(grids: list[np.ndarray], v: np.ndarray) -> bool:
    """Whether ``grids`` can be the sample grid of ``v`` (vectors of the
    matching lengths, or arrays of ``v``'s size)."""
    sizes = (v.size,) if _dims(v) == 1 else v.shape
    return all(g.shape == v.shape or (_dims(g) == 1 and g.size == n)
               for g, n in zip(grids, sizes))


def _grid_vector(a: np.ndarray, k: int, v: np.ndarray) -> np.ndarray:
    """Grid vector ``k`` from a vector or from a full NDGRID array."""
    if a.size == v.size and a.size > v.shape[k]:
        return np.moveaxis(a, k, 0).reshape(v.shape[k], -1)[:, 0]
    return a.reshape(-1, order="F")


def _options(rest: list) -> tuple[str, complex | float]:
    extrapval: complex | float = np.nan
    if len(rest) >= 3 and is_text(rest[-2]) and not is_text(rest[-1]):
        value = _array(rest.pop())
        if value.size != 1:
            raise MatlabError("MATLAB:interpn:InvalidExtrapval",
                              "The extrapolation value must be a numeric scalar.")
        extrapval = value.reshape(-1)[0].item()
    method = "linear"
    if rest and is_text(rest[-1]):
        method = to_str(rest.pop()).lower().lstrip("*")
        if method not in METHODS:
            raise MatlabError("MATLAB:interpn:InvalidMethod",
                              f"'{method}' is not a valid interpolation method.")
    return method, extrapval


def _times(k: np.ndarray) -> int:
    """The refinement count of ``interpn(V, k)``: a whole number >= 0."""
    value = _real(k).reshape(-1)
    if value.size != 1 or not np.isfinite(value[0]) or value[0] < 0 or value[0] != int(value[0]):
        raise MatlabError("MATLAB:interpn:InvalidRefinement",
                          "The refinement factor must be a nonnegative integer scalar.")
    return int(value[0])


def _refined(v: np.ndarray, times: int) -> list[np.ndarray]:
    check_allocation(tuple((n - 1) * 2 ** min(times, 64) + 1 for n in v.shape), 8)
    step = 2.0 ** -times
    return [np.arange(1.0, n + step / 2, step) for n in v.shape]


@builtin("interpn", category="interpolation", nargin=(1, None))
def interpn(*args: Any) -> Any:
    """N-D interpolation on an NDGRID grid: ``interpn(X1,...,Xn,V,Xq1,...,Xqn,
    method, extrapval)``, ``interpn(V, Xq1,...,Xqn, ...)``, ``interpn(V, k)``;
    methods linear (default) nearest next previous pchip cubic spline makima."""
    rest = list(args)
    method, extrapval = _options(rest)
    arrays = [_array(a) for a in rest]
    d = (len(arrays) - 1) // 2
    if len(arrays) > 2 and len(arrays) % 2 == 1 and _dims(arrays[d]) == d and \
            _grids_fit(arrays[:d], arrays[d]):
        v = arrays[d]
        grids = [_real(_grid_vector(a, k, v)) for k, a in enumerate(arrays[:d])]
        queries = [_real(q) for q in arrays[d + 1:]]
    else:
        v = arrays[0]
        if len(arrays) == 1 or (len(arrays) == 2 and _dims(v) > 1):
            queries = _refined(v if _dims(v) > 1 else v.reshape(-1),
                               1 if len(arrays) == 1 else _times(arrays[1]))
        else:
            queries = [_real(q) for q in arrays[1:]]
        grids = [np.arange(1.0, n + 1) for n in (v.shape if _dims(v) > 1 else (v.size,))]
    if _dims(v) == 1:
        v = v.reshape(-1, order="F")
        grids = grids[:1]
    if len(queries) != len(grids):
        raise MatlabError("MATLAB:interpn:InvalidNumberOfInputs",
                          "Wrong number or incorrectly formatted input arguments.")
    for k, g in enumerate(grids):
        if g.size > 1 and g[0] > g[-1]:        # descending grid: read it reversed
            grids[k] = g[::-1]
            v = np.flip(v, axis=k)
    check_grid(grids, v, method)
    shapes = {q.shape for q in queries}
    if len(shapes) > 1 or (len(arrays) <= 2 and _dims(arrays[0]) > 1):
        if not all(_dims(q) == 1 for q in queries):
            raise MatlabError("MATLAB:interpn:SizeMismatch",
                              "The query coordinate arrays must be the same size.")
        queries = np.meshgrid(*(q.reshape(-1, order="F") for q in queries), indexing="ij")
    shape = queries[0].shape
    points = np.stack([q.reshape(-1, order="F") for q in queries], axis=1)
    out = evaluate(grids, v, points, method, method)
    outside = np.zeros(points.shape[0], dtype=bool)
    for k, g in enumerate(grids):
        outside |= (points[:, k] < g[0]) | (points[:, k] > g[-1])
    if np.any(outside):
        out = out.astype(np.result_type(out.dtype, np.asarray(extrapval).dtype))
        out[outside] = extrapval
    return canonical(out.reshape(shape, order="F"))
