"""Device path of ``mode``: ``[M, F] = mode(x)``, ``mode(x, dim)`` and
``mode(x, 'all')`` of real numeric data.

Each slice is sorted on the device (NaN last, and ignored, as MATLAB does);
the run length ending at each position is its row index minus the running
maximum of the rows where a new value starts (``cummax``), plus one. The
first maximum of the run lengths (``max`` with its index) ends the longest
run of the smallest such value: ``F`` is that length and ``M`` the value
there, gathered at device-computed positions. A slice of only NaN has
``F = 0`` and ``M = NaN``.

Integer data is counted in double (exact) and ``M`` keeps the class; logical
data gives double. The third output (the cell of ties), complex data and
empty arrays return None: the dispatcher's counted host fallback.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import (
    COLON, EMPTY, FLOAT, INT_EXACT_IN_DOUBLE, as_columns, call, dims_of, index, op,
)
from matfuse.runtime.values import char_array, is_char, to_str

_CLASSES = FLOAT + INT_EXACT_IN_DOUBLE + ("logical",)


def mode_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``[M, F] = mode(x[, dim | 'all'])`` (see module doc)."""
    if nargout > 2 or len(args) not in (1, 2) or not isinstance(args[0], GpuArray):
        return None
    x = args[0]
    if x.is_complex() or x.matlab_class not in _CLASSES or 0 in x.shape:
        return None
    if len(args) == 2:
        if isinstance(args[1], GpuArray) or (is_char(args[1]) and to_str(args[1]).lower() != "all"):
            return None
        dims = dims_of(args[1], tuple(x.shape))
        if dims == "bad" or (dims is not None and len(dims) != 1):
            return None
    else:
        dims = dims_of(None, tuple(x.shape))
    cls = x.matlab_class
    work = x if cls in FLOAT else call("double", x)
    columns, out_shape = as_columns(work, dims)
    length, count = columns.shape[0], columns.shape[1]
    s = call("sort", columns, 1.0)
    rows = np.arange(1, length + 1, dtype=np.float64).reshape(-1, 1)
    if length > 1:
        same = op("==", index(s, rows[1:], COLON), index(s, rows[:-1], COLON))
        starts = call("vertcat", call("true", 1.0, float(count)), call("not", same))
        run_start = call("cummax", op(".*", rows, starts), 1.0)
        runs = op("+", op("-", rows, run_start), 1.0)
    else:
        runs = call("ones", 1.0, float(count), char_array("like"), s)
    runs = op(".*", runs, call("not", call("isnan", s)))
    frequency, where = call("max", runs, EMPTY, 1.0, nargout=2)
    positions = op("+", where, np.arange(0, length * count, length, dtype=np.float64).reshape(1, -1))
    value = index(s, positions)
    value = call("reshape", value, *[float(d) for d in out_shape])
    if cls in INT_EXACT_IN_DOUBLE:
        value = call(cls, value)
    frequency = call("reshape", frequency, *[float(d) for d in out_shape])
    return [value, frequency][:max(nargout, 1)]


COMPOSED = {"mode": mode_on_device}
