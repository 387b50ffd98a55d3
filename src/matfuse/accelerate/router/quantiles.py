"""Device paths of ``quantile``, ``prctile`` and ``iqr``: MATLAB's default
method (sorted point ``i`` of ``n`` at probability ``(i - 0.5)/n``, linear
interpolation between, clamped at the ends), NaN ignored.

The data is brought to an L x R matrix (one column per slice), sorted along
the columns on the device (NaN last); the count ``n`` of non-NaN values of
each column, the fractional positions ``p*n + 0.5`` and the two neighbours'
linear indices are device arrays too, so slices with different NaN counts
need no read-back. Where a neighbour is infinite the weighted form
``(1-f)*lo + f*hi`` replaces ``lo + f*(hi-lo)`` (which would give NaN), as
the host does; an all-NaN slice gives NaN. Work is in double; single data
gives single.

Complex, integer or empty data, a device ``p``, and name/value options
return None: the dispatcher's counted host fallback, which raises MATLAB's
errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.router.compose_ops import (
    as_columns, call, dims_of, first_nonsingleton, nan_where_true, op, real_float, where,
)
from matfuse.accelerate.router.indexing import gather_at


def _probabilities(p: Any, fn: str) -> list[float] | None:
    """The probabilities of the host ``p`` argument, or None (host decides)."""
    if type(p) is float:
        values = np.array([p])
    elif type(p) is np.ndarray and p.dtype.kind in "fiu" and p.size >= 1:
        values = p.astype(np.float64).reshape(-1, order="F")
    else:
        return None
    if fn == "quantile" and values.size == 1 and values[0] >= 1 and values[0] == np.floor(values[0]):
        count = int(values[0])
        return [float(q) for q in np.arange(1, count + 1) / (count + 1)]
    probs = values / (100.0 if fn == "prctile" else 1.0)
    if np.any(np.isnan(probs)) or np.any((probs < 0) | (probs > 1)):
        return None
    return [float(q) for q in probs]


def column_quantiles(cols: Any, probs: list[float]) -> list[Any]:
    """1 x R rows of the ``probs`` quantiles of each column of the L x R
    double gpuArray ``cols``, NaN ignored."""
    length, width = cols.shape[0], cols.shape[1]
    s = call("sort", cols, 1.0)
    n = call("sum", call("not", call("isnan", cols)), 1.0)
    top = call("max", n, 1.0)
    zero_based = np.arange(width, dtype=np.float64).reshape(1, -1) * float(length) - 1.0
    no_data = nan_where_true(op("==", n, 0.0))
    rows = []
    for q in probs:
        pos = call("min", call("max", op("+", op(".*", q, n), 0.5), 1.0), top)
        lo = call("floor", pos)
        hi = call("min", op("+", lo, 1.0), top)
        frac = op("-", pos, lo)
        # the neighbours' positions are in range by construction: no check
        v_lo = gather_at(s, call("int32", op("+", lo, zero_based)), (1, width))
        v_hi = gather_at(s, call("int32", op("+", hi, zero_based)), (1, width))
        out = op("+", v_lo, op(".*", frac, op("-", v_hi, v_lo)))
        # infinite neighbours: weight the ends instead (Inf - Inf is NaN)
        weighted = op("+", op(".*", op("-", 1.0, frac), v_lo), op(".*", frac, v_hi))
        weighted = where(op("==", frac, 0.0), v_lo, weighted)
        infinite = call("not", op("&", call("isfinite", v_lo), call("isfinite", v_hi)))
        out = where(infinite, weighted, out)
        rows.append(op("+", out, no_data))
    return rows


def _quantile(fn: str, args: list[Any], nargout: int) -> list[Any] | None:
    """``quantile(x, p)``, ``quantile(x, p, dim|'all')`` (and ``prctile``)."""
    if nargout > 1 or len(args) not in (2, 3) or not real_float(args[0]):
        return None
    x = args[0]
    probs = _probabilities(args[1], fn)
    if probs is None:
        return None
    shape = tuple(x.shape)
    if len(args) == 2:
        axis = 1 if len(shape) == 2 and shape[0] == 1 else first_nonsingleton(shape)
        dims: tuple[int, ...] | None = (axis,)
    else:
        dims = dims_of(args[2], shape)
        if dims == "bad" or (dims is not None and len(dims) != 1):
            return None
    if dims is None:
        x = call("reshape", x, float(np.prod(shape)), 1.0)
        shape, dims = tuple(x.shape), (0,)
    axis = dims[0]
    shape = shape + (1,) * (axis + 1 - len(shape))
    single = x.matlab_class == "single"
    cols, _ = as_columns(call("double", x), (axis,))
    stacked = call("vertcat", *column_quantiles(cols, probs))
    front = [float(len(probs))] + [float(d) for i, d in enumerate(shape) if i != axis]
    moved = call("reshape", stacked, *(front + [1.0] * (2 - len(front))))
    order = list(range(1, axis + 1)) + [0] + list(range(axis + 1, len(shape)))
    if order != list(range(len(order))):
        moved = call("permute", moved, np.array([[d + 1.0 for d in order]]))
    return [call("single", moved) if single else moved]


def quantile_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    return _quantile("quantile", args, nargout)


def prctile_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    return _quantile("prctile", args, nargout)


def iqr_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``iqr(x)``, ``iqr(x, dim|vecdim|'all')``: the 75th minus the 25th
    percentile of each slice, NaN ignored."""
    if nargout > 1 or len(args) not in (1, 2) or not real_float(args[0]):
        return None
    x = args[0]
    dims = dims_of(args[1] if len(args) == 2 else None, tuple(x.shape))
    if dims == "bad":
        return None
    cols, out_shape = as_columns(call("double", x), dims)
    q25, q75 = column_quantiles(cols, [0.25, 0.75])
    r = call("reshape", op("-", q75, q25), *[float(d) for d in out_shape])
    return [call("single", r) if x.matlab_class == "single" else r]


COMPOSED = {
    "quantile": quantile_on_device,
    "prctile": prctile_on_device,
    "iqr": iqr_on_device,
}
