"""Device paths of ``interp2`` and ``interpn`` for the ``linear`` and
``nearest`` methods: the host engine's tensor-product stencils
(``runtime.gridded_interpolant``), built on the device; and interp2's
``cubic``/``pchip``: pchip along the second dimension at each query's
coordinate, then along the first through each query's own column of those
values (the host engine's order), with the coefficients of every column
computed at once and each query's gathered by linear index.

For each dimension, the interval of every query coordinate comes from
``interpolation.samples_below`` (a joint stable sort, no search hook); a
linear stencil is the pair ``(i, 1 - t), (i + 1, t)``, a nearest one the
closer sample (ties to the larger). The 2^d corners are gathered from the
values by linear index and summed with the products of their weights in the
host's order. Queries outside the grid get ``extrapval`` (NaN by default),
NaN queries too.

Grids must ascend: a host grid is checked on the host, device grids with one
logical read back; descending or unsorted grids, other methods, complex or
integer data, and N-D query forms the host expands differently return None:
the dispatcher's counted host fallback, which raises MATLAB's errors.
"""

from __future__ import annotations

from itertools import product
from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray, upload_value
from matfuse.accelerate.router.compose_ops import (
    COLON, FLOAT, assign, call, host_scalar, index, nan_where_true, op, size_of,
)
from matfuse.accelerate.router.interpolation import (
    hermite_coefficients, hermite_values, pchip_slopes, samples_below,
)
from matfuse.runtime.values import DeviceValue, is_char, to_str

_METHODS = ("linear", "nearest")
#: interp2's methods here (its ``cubic`` is pchip along each dimension, as
#: the host engine computes it)
_INTERP2_METHODS = _METHODS + ("cubic", "pchip")


def _real_float(v: Any) -> bool:
    if isinstance(v, DeviceValue):
        return isinstance(v, GpuArray) and v.matlab_class in FLOAT and not v.is_complex() \
            and 0 not in v.shape
    return type(v) is float or (type(v) is np.ndarray and v.dtype.kind == "f" and v.size > 0)


def _column(v: Any) -> Any:
    return call("reshape", call("double", v), float(np.prod(size_of(v))), 1.0)


def _ascending(grids: list[Any]) -> bool:
    """Whether every grid column strictly ascends (device grids read back once)."""
    device_flags = []
    for g in grids:
        n = size_of(g)[0]
        if n < 2:
            continue
        steps = op("-", index(g, np.arange(2, n + 1, dtype=np.float64).reshape(-1, 1)),
                   index(g, np.arange(1, n, dtype=np.float64).reshape(-1, 1)))
        ok = call("all", op(">", steps, 0.0))
        if isinstance(ok, DeviceValue):
            device_flags.append(call("double", ok))
        elif not bool(np.asarray(ok).reshape(-1)[0]):
            return False
    if device_flags:
        flags = call("horzcat", *device_flags).gather()
        return bool(np.all(np.asarray(flags)))
    return True


def _stencil(grid: Any, q: Any, method: str) -> list[tuple[Any, Any]]:
    """(1-based indices, weights or None) pairs of one dimension."""
    n = size_of(grid)[0]
    below = samples_below(grid, q, False)
    if method == "nearest":
        lower = call("min", call("max", below, 1.0), float(n))
        upper = call("min", op("+", lower, 1.0), float(n))
        pick = op(">=", op("-", q, index(grid, lower)), op("-", index(grid, upper), q))
        return [(op("+", lower, op(".*", pick, op("-", upper, lower))), None)]
    i = call("min", call("max", below, 1.0), float(n - 1))
    x_lo = index(grid, i)
    t = op("./", op("-", q, x_lo), op("-", index(grid, op("+", i, 1.0)), x_lo))
    return [(i, op("-", 1.0, t)), (op("+", i, 1.0), t)]


def grid_values(grids: list[Any], v: Any, points: list[Any], method: str,
                extrapval: float | None) -> Any:
    """Values (m x 1) at the query columns ``points`` of the double gpuArray
    ``v`` on ascending ``grids`` (NDGRID layout); outside or NaN: extrapval
    (None: the method extrapolates, NaN queries give NaN)."""
    sizes = [size_of(g)[0] for g in grids]
    if method == "pchip":
        return _masked(_pchip_2d(grids, v, points), grids, points, sizes, extrapval)
    strides = np.cumprod([1] + sizes[:-1]).tolist()
    stencils = []
    for k, (g, q) in enumerate(zip(grids, points)):
        if sizes[k] == 1:
            stencils.append([(op("+", op(".*", q, 0.0), 1.0), None)])
        else:
            stencils.append(_stencil(g, q, method))
    values = _column(v)          # gathers by linear index give columns
    out = None
    for combo in product(*stencils):
        lin = 1.0
        weight = None
        for k, (where, w) in enumerate(combo):
            lin = op("+", lin, op(".*", op("-", where, 1.0), float(strides[k])))
            if w is not None:
                weight = w if weight is None else op(".*", weight, w)
        value = index(values, lin)
        term = value if weight is None else op(".*", weight, value)
        out = term if out is None else op("+", out, term)
    return _masked(out, grids, points, sizes, extrapval)


def _interval(grid: Any, q: Any) -> Any:
    """1-based interval of each query (extrapolating from the end intervals)."""
    n = size_of(grid)[0]
    return call("min", call("max", samples_below(grid, q, False), 1.0), float(n - 1))


def _pchip_2d(grids: list[Any], v: Any, points: list[Any]) -> Any:
    """pchip along the second dimension at every query's coordinate, then
    along the first for each query's own column (the host engine's order)."""
    (yg, xg), (qy, qx) = grids, points
    rows, m = size_of(yg)[0], size_of(qx)[0]
    across = call("transpose", call("reshape", v, float(rows), float(size_of(xg)[0])))
    along_x = hermite_values(hermite_coefficients(xg, across, pchip_slopes(xg, across)),
                             op("-", qx, index(xg, _interval(xg, qx))),
                             lambda c: index(c, _interval(xg, qx), COLON))
    columns = call("transpose", along_x)                 # rows x m: query j's column j
    at = _interval(yg, qy)
    first = np.arange(0, (rows - 1) * m, rows - 1, dtype=np.float64).reshape(-1, 1)
    own = op("+", at, first)                             # (at(j), j) of each coefficient matrix
    return hermite_values(hermite_coefficients(yg, columns, pchip_slopes(yg, columns)),
                          op("-", qy, index(yg, at)), lambda c: index(c, own))


def _masked(out: Any, grids: list[Any], points: list[Any], sizes: list[int],
            extrapval: float | None) -> Any:
    """``out`` with NaN at NaN queries (``extrapval`` None) or ``extrapval``
    outside the grid."""
    if extrapval is None:
        missing = None
        for q in points:
            nan = call("isnan", q)
            missing = nan if missing is None else op("|", missing, nan)
        return op("+", out, nan_where_true(missing))
    outside = None
    for g, q, n in zip(grids, points, sizes):
        inside = op("&", op(">=", q, index(g, 1.0)), op("<=", q, index(g, float(n))))
        outside = call("not", inside) if outside is None else op("|", outside, call("not", inside))
    if np.isnan(extrapval):
        return op("+", out, nan_where_true(outside))
    return assign(out, [outside], extrapval)


def _options(rest: list[Any], methods: tuple[str, ...] = _METHODS) -> tuple[str, float] | None:
    """(method, extrapval) of the trailing arguments (removed from ``rest``);
    ``cubic`` becomes ``pchip`` (interp2's)."""
    extrapval = float("nan")
    if len(rest) >= 3 and is_char(rest[-2]) and not is_char(rest[-1]):
        value = rest.pop()
        if type(value) is not float:
            return None
        extrapval = value
    method = "linear"
    if rest and is_char(rest[-1]):
        method = to_str(rest.pop()).lower().lstrip("*")
    if method not in methods:
        return None
    return ("pchip" if method == "cubic" else method), extrapval


def _provider(args: list[Any]) -> Any:
    return next(a.provider for a in args if isinstance(a, GpuArray))


def _on_device(v: Any, p: Any) -> Any:
    v = call("double", v)
    return v if isinstance(v, DeviceValue) else upload_value(v, p)


def _expanded(queries: list[Any]) -> tuple[list[Any], tuple[int, ...]] | None:
    """Query arrays of one shape as columns (and that shape); vectors of
    different lengths or orientations expand to their NDGRID/MESHGRID."""
    shapes = [size_of(q) for q in queries]
    if len(set(shapes)) == 1:
        return [_column(q) for q in queries], shapes[0]
    return None


def interp2_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``interp2(V, Xq, Yq, ...)`` and ``interp2(X, Y, V, Xq, Yq, ...)``."""
    if nargout > 1 or not 1 <= len(args) <= 7:
        return None
    rest = list(args)
    opts = _options(rest, _INTERP2_METHODS)
    if opts is not None and len(rest) in (1, 2) and _real_float(rest[0]):
        return _refined(rest, opts, swap=True)
    if opts is None or len(rest) not in (3, 5) or not all(_real_float(a) for a in rest):
        return None
    method, extrapval = opts
    v = rest[-3]
    rows, cols = size_of(v) if len(size_of(v)) == 2 else (0, 0)
    if min(rows, cols) < 2:
        return None
    if len(rest) == 5:
        xa, ya = rest[0], rest[1]
        xg = index(xa, 1.0, COLON) if size_of(xa) == size_of(v) else xa
        yg = index(ya, COLON, 1.0) if size_of(ya) == size_of(v) else ya
        xg, yg = _column(xg), _column(yg)
        if size_of(xg)[0] != cols or size_of(yg)[0] != rows or not _ascending([yg, xg]):
            return None
    else:
        xg = np.arange(1.0, cols + 1).reshape(-1, 1)
        yg = np.arange(1.0, rows + 1).reshape(-1, 1)
    xq, yq = rest[-2], rest[-1]
    sx, sy = size_of(xq), size_of(yq)
    if sx != sy:
        if int(np.prod(sx)) == 1:
            xq = op(".*", call("ones", *[float(d) for d in sy]), xq)
        elif int(np.prod(sy)) == 1:
            yq = op(".*", call("ones", *[float(d) for d in sx]), yq)
        elif len(sx) == 2 and len(sy) == 2 and min(sx) == 1 and min(sy) == 1:
            nx, ny = int(np.prod(sx)), int(np.prod(sy))
            xq = call("repmat", call("reshape", xq, 1.0, float(nx)), float(ny), 1.0)
            yq = call("repmat", call("reshape", yq, float(ny), 1.0), 1.0, float(nx))
        else:
            return None
    shape = size_of(xq)
    p = _provider(args)
    out = grid_values([yg, xg], _on_device(v, p), [_column(yq), _column(xq)], method, extrapval)
    return [call("reshape", out, *[float(d) for d in shape])]


def _refined(rest: list[Any], opts: tuple[str, float], swap: bool) -> list[Any] | None:
    """``interp2(V[, k])``, ``interpn(V[, k])``: V on its grid refined ``k``
    times (once by default); the query grid is made on the host from sizes.
    ``swap``: interp2's MESHGRID order (x along columns) for 2-D data."""
    v = rest[0]
    times = 1 if len(rest) == 1 else host_scalar(rest[1])
    if times is None or times < 0 or times != int(times) or isinstance(rest[-1], DeviceValue) \
            and len(rest) == 2:
        return None
    shape = size_of(v)
    sizes = [int(np.prod(shape))] if _dims(v) == 1 else list(shape)
    if min(sizes) < 2 or (swap and len(sizes) != 2):
        return None
    step = 2.0 ** -int(times)
    axes = [np.arange(1.0, n + step / 2, step) for n in sizes]
    mesh = np.meshgrid(*axes, indexing="ij")
    points = [m.reshape(-1, 1, order="F") for m in mesh]
    grids = [np.arange(1.0, n + 1).reshape(-1, 1) for n in sizes]
    method, extrapval = opts
    out = grid_values(grids, _on_device(v, v.provider), points, method, extrapval)
    out_shape = mesh[0].shape if len(sizes) > 1 else (mesh[0].size, 1)
    if len(sizes) == 1 and shape[0] == 1:
        out_shape = (1, mesh[0].size)
    return [call("reshape", out, *[float(d) for d in out_shape])]


def _grid_column(a: Any, k: int, v_shape: tuple[int, ...]) -> Any:
    """Grid vector ``k`` from a vector or from a full NDGRID array."""
    if size_of(a) == v_shape and v_shape[k] < int(np.prod(v_shape)):
        subs: list[Any] = [1.0] * len(v_shape)
        subs[k] = COLON
        return _column(index(a, *subs))
    return _column(a)


def _dims(v: Any) -> int:
    """Number of dimensions as interpn counts them (a vector has one)."""
    shape = size_of(v)
    return 1 if len(shape) == 2 and min(shape) == 1 else len(shape)


def _grids_fit(grids: list[Any], v: Any) -> bool:
    """Whether ``grids`` can be the sample grid of ``v`` (vectors of the
    matching lengths, or arrays of ``v``'s size), as the host decides."""
    v_shape = size_of(v)
    sizes = (int(np.prod(v_shape)),) if _dims(v) == 1 else v_shape
    return all(size_of(g) == v_shape or (_dims(g) == 1 and int(np.prod(size_of(g))) == n)
               for g, n in zip(grids, sizes))


def interpn_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``interpn(V, Xq1,...,Xqn, ...)`` and ``interpn(X1,...,Xn, V, Xq1,...,Xqn, ...)``
    with query arrays of one size."""
    if nargout > 1 or not args:
        return None
    rest = list(args)
    opts = _options(rest)
    if opts is None or not all(_real_float(a) for a in rest):
        return None
    if len(rest) == 1 or (len(rest) == 2 and _dims(rest[0]) > 1):
        return _refined(rest, opts, swap=False)
    method, extrapval = opts
    d = (len(rest) - 1) // 2
    if len(rest) > 2 and len(rest) % 2 == 1 and _dims(rest[d]) == d and \
            _grids_fit(rest[:d], rest[d]):
        v, grid_args, queries = rest[d], rest[:d], rest[d + 1:]
    else:
        v, grid_args, queries = rest[0], None, rest[1:]
        d = len(queries)
        if _dims(v) != d:
            return None
    v_shape = size_of(v)
    sizes = [int(np.prod(v_shape))] if d == 1 else list(v_shape)
    if grid_args is None:
        grids = [np.arange(1.0, n + 1).reshape(-1, 1) for n in sizes]
    else:
        grids = [_grid_column(a, k, v_shape) for k, a in enumerate(grid_args)]
        if any(size_of(g)[0] != n for g, n in zip(grids, sizes)) or not _ascending(grids):
            return None
    if min(sizes) < 2:
        return None
    expanded = _expanded(queries)
    if expanded is None:
        return None
    points, shape = expanded
    p = _provider(args)
    out = grid_values(grids, _on_device(v, p), points, method, extrapval)
    return [call("reshape", out, *[float(s) for s in shape])]


def gridded_evaluate_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``_gridded_evaluate(V, method, extrap, g1..gd, q1..qd)``: a
    griddedInterpolant's values at same-size query arrays (``extrap`` the
    method itself, or ``'none'``)."""
    if nargout > 1 or len(args) < 5 or not is_char(args[1]) or not is_char(args[2]):
        return None
    v, method, extrap = args[0], to_str(args[1]), to_str(args[2])
    d = (len(args) - 3) // 2
    grids, queries = list(args[3:3 + d]), list(args[3 + d:])
    if method not in _METHODS or extrap not in (method, "none") or len(queries) != d or \
            not all(_real_float(a) for a in [v] + grids + queries):
        return None
    if any(size_of(g)[0] < 2 for g in grids):
        return None
    expanded = _expanded(queries)
    if expanded is None:
        return None
    points, shape = expanded
    out = grid_values([_column(g) for g in grids], _on_device(v, _provider(args)), points,
                      method, None if extrap == method else float("nan"))
    return [call("reshape", out, *[float(s) for s in shape])]


COMPOSED = {
    "_gridded_evaluate": gridded_evaluate_on_device,
    "interp2": interp2_on_device,
    "interpn": interpn_on_device,
}
