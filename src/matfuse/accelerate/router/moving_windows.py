"""Device paths of ``movmax``, ``movmin``, ``movprod``, ``movstd`` and
``movvar`` (``runtime/builtins/moving_windows.py`` defines them).

The data is padded along the window's dimension with ``kb`` elements before
and ``kf`` after (one device concatenation), and the window's ``L = kb + kf
+ 1`` offsets are range reads of the padded array: each fuses into the
consumer, so a fold over them (``max``, ``.*``, ``+``) is one kernel, with
no positions buffer. The padding value makes the endpoints rule:

* ``'shrink'``/``'discard'``: NaN for max/min (their fold omits NaN), 1 for
  products, and a zero "present" flag for the counts of std/var;
* ``'fill'``: NaN, taking part like data; a numeric scalar: that value.

``'includenan'`` max/min add NaN where a window holds a NaN of the data (a
second fold of the NaN flags); ``'omitnan'`` products read NaN as 1;
std/var are the host's two passes (the mean over the present elements,
then the squares of the differences). ``'discard'`` keeps the positions
whose window lies inside. Windows longer than 64, complex, integer or
empty data, ``movmedian`` and ``'SamplePoints'`` return None: the
dispatcher's counted host fallback.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import COLON, FLOAT, call, index, nan_where_true, op, where
from matfuse.runtime.builtins.moving_windows import moving_options, window_extent
from matfuse.runtime.values import char_array

_LIKE = char_array("like")
_LONGEST = 64


def _padded(x: Any, axis: int, back: int, fwd: int, value: float) -> Any:
    """``x`` with ``back``/``fwd`` elements of ``value`` around ``axis``."""
    parts = []
    for count in (back, fwd):
        shape = list(x.shape)
        shape[axis] = count
        parts.append(None if count == 0 else
                     op("+", call("zeros", *[float(d) for d in shape], _LIKE, x), value))
    pieces = [p for p in (parts[0], x, parts[1]) if p is not None]
    return pieces[0] if len(pieces) == 1 else call("cat", float(axis + 1), *pieces)


def _reads(padded: Any, axis: int, n: int, length: int) -> list[Any]:
    """The window's ``length`` offsets: ranges of ``padded`` along ``axis``."""
    rank = len(padded.shape)
    reads = []
    for j in range(length):
        subs: list[Any] = [COLON] * rank
        subs[axis] = np.arange(j + 1.0, j + n + 1.0).reshape(1, -1)
        reads.append(index(padded, *subs))
    return reads


def _fold(symbol: str, reads: list[Any]) -> Any:
    acc = reads[0]
    for r in reads[1:]:
        acc = call(symbol, acc, r) if symbol in ("max", "min") else op(symbol, acc, r)
    return acc


def _discard(result: Any, axis: int, back: int, fwd: int, n: int) -> Any:
    subs: list[Any] = [COLON] * len(result.shape)
    subs[axis] = np.arange(back + 1.0, n - fwd + 1.0).reshape(1, -1)
    return index(result, *subs)


def _extreme(fn: str, x: Any, axis: int, back: int, fwd: int, omit: bool, endpoints: Any) -> Any:
    n, length = x.shape[axis], back + fwd + 1
    pad = float(endpoints) if isinstance(endpoints, float) else float("nan")
    out = _fold("max" if fn == "movmax" else "min", _reads(_padded(x, axis, back, fwd, pad),
                                                          axis, n, length))
    if not omit:
        flags = call("double", call("isnan", x))
        nan_pad = 1.0 if endpoints == "fill" else 0.0
        seen = _fold("+", _reads(_padded(flags, axis, back, fwd, nan_pad), axis, n, length))
        out = op("+", out, nan_where_true(op(">", seen, 0.0)))
    return out


def _product(x: Any, axis: int, back: int, fwd: int, omit: bool, endpoints: Any) -> Any:
    n, length = x.shape[axis], back + fwd + 1
    if omit:
        x = where(call("isnan", x), call("ones", *[float(d) for d in x.shape], _LIKE, x), x)
    pad = float(endpoints) if isinstance(endpoints, float) else \
        (1.0 if endpoints != "fill" or omit else float("nan"))
    return _fold(".*", _reads(_padded(x, axis, back, fwd, pad), axis, n, length))


def _no_nan(x: Any) -> Any:
    """``x`` with NaN read as 0 (``max`` and ``min`` omit NaN; infinities
    kept; a -0 becomes 0, which no sum or square tells apart)."""
    return op("+", call("max", x, 0.0), call("min", x, 0.0))


def _spread(fn: str, x: Any, axis: int, back: int, fwd: int, omit: bool, endpoints: Any,
            weight: float) -> Any:
    n, length = x.shape[axis], back + fwd + 1
    present = call("double", call("not", call("isnan", x))) if omit else \
        call("ones", *[float(d) for d in x.shape], _LIKE, x)
    values = _no_nan(x) if omit else x
    if isinstance(endpoints, float):
        value_pad, present_pad = endpoints, 1.0
    elif endpoints == "fill":
        value_pad, present_pad = (0.0, 0.0) if omit else (float("nan"), 1.0)
    else:
        value_pad, present_pad = 0.0, 0.0
    value_reads = _reads(_padded(values, axis, back, fwd, value_pad), axis, n, length)
    present_reads = _reads(_padded(present, axis, back, fwd, present_pad), axis, n, length)
    count = _fold("+", present_reads)
    mean = op("./", _fold("+", [op(".*", v, w) for v, w in zip(value_reads, present_reads)]),
              call("max", count, 1.0))
    squares = _fold("+", [op(".*", op(".*", op("-", v, mean), w), op("-", v, mean))
                          for v, w in zip(value_reads, present_reads)])
    divisor = count if weight == 1.0 else op("-", count, 1.0)
    out = op("./", squares, call("max", divisor, 1.0))
    out = op("+", out, nan_where_true(op("==", count, 0.0)))
    return call("sqrt", out) if fn == "movstd" else out


def moving_on_device(fn: str) -> Any:
    def moving(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
        """``fn(x, k, options...)`` of a real double/single gpuArray."""
        if nargout > 1 or len(args) < 2 or not isinstance(args[0], GpuArray):
            return None
        x = args[0]
        if x.is_complex() or x.matlab_class not in FLOAT or 0 in x.shape \
                or isinstance(args[1], GpuArray) or any(isinstance(a, GpuArray) for a in args[2:]):
            return None
        back, fwd = window_extent(args[1], fn)
        axis, omit, endpoints, weight = moving_options(tuple(args[2:]), fn)
        if axis is None:
            axis = next((i for i, d in enumerate(x.shape) if d != 1), 0)
        if axis >= len(x.shape):
            return None
        n = x.shape[axis]
        back, fwd = min(back, n), min(fwd, n)
        if back + fwd + 1 > _LONGEST:
            return None
        if omit is None:
            omit = fn in ("movmax", "movmin")
        if fn in ("movmax", "movmin"):
            out = _extreme(fn, x, axis, back, fwd, omit, endpoints)
        elif fn == "movprod":
            out = _product(x, axis, back, fwd, omit, endpoints)
        else:
            out = _spread(fn, x, axis, back, fwd, omit, endpoints, weight)
        if endpoints == "discard":
            out = _discard(out, axis, back, fwd, n)
        return [out]
    return moving


COMPOSED = {fn: moving_on_device(fn) for fn in ("movmax", "movmin", "movprod", "movstd", "movvar")}
