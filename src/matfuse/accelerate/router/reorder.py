"""Device paths of builtins that only reorder elements: ``fftshift``,
``ifftshift`` (a circular shift by half of each dimension, ``floor(n/2)``
forward and ``-floor(n/2)`` back) and ``sortrows`` of real matrices.

``sortrows(A, columns)`` is the host's lexicographic order built from stable
sorts: rows are sorted by the last key column first, and each earlier key
re-sorts the permuted rows stably (``sort`` keeps equal keys in order; NaN
goes last ascending and first descending, as the host ranks them). Each key
is one device sort of a column and one gather; the permutation stays on the
device.

Other forms (complex or integer data for ``sortrows``, cell or string
arrays, device dim arguments) return None: the dispatcher's counted host
fallback, which raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import LIKE, call, op, positive_int, real_float
from matfuse.accelerate.router.indexing import gather_at
from matfuse.runtime.values import char_array, is_char, to_str


def _half_shift(inverse: bool) -> Any:
    def shift(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
        if nargout > 1 or len(args) not in (1, 2) or not isinstance(args[0], GpuArray):
            return None
        x = args[0]
        shape = tuple(x.shape)
        if len(args) == 2:
            dim = positive_int(args[1])
            if dim is None:
                return None
            dims = [dim - 1]
        else:
            dims = list(range(len(shape)))
        amounts = [0] * len(shape)
        for d in dims:
            if d < len(shape):
                amounts[d] = -(shape[d] // 2) if inverse else shape[d] // 2
        if not any(amounts):
            return [x]
        return [call("circshift", x, np.array([amounts], dtype=np.float64))]
    shift.__doc__ = ("Circular shift by " + ("-" if inverse else "") +
                     "floor(n/2) along each dimension (or the one given).")
    return shift


def _key_columns(args: list[Any], ncols: int) -> list[int] | None:
    """Signed 1-based key columns of ``sortrows(A, columns, direction)``
    (negative: descending), or None for forms the host decides."""
    column, direction = (list(args) + [None, None])[:2]
    if column is not None and is_char(column):
        column, direction = None, column
    descend = False
    if direction is not None:
        if not is_char(direction) or to_str(direction).lower() not in ("ascend", "descend"):
            return None
        descend = to_str(direction).lower() == "descend"
    if column is None or (type(column) is np.ndarray and column.size == 0):
        columns = list(range(1, ncols + 1))
    else:
        if type(column) is float:
            column = np.array([[column]])
        if type(column) is not np.ndarray or column.dtype.kind not in "fiu":
            return None
        values = column.reshape(-1, order="F").astype(np.float64)
        if np.any(values != np.round(values)) or np.any(values == 0) or \
                np.any(np.abs(values) > ncols):
            return None
        columns = [int(c) for c in values]
    return [-c for c in columns] if descend else columns


def sortrows_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``sortrows(A)``, ``(A, columns)``, ``(A, direction)``, ``(A, columns,
    direction)`` and ``[B, i] = ...`` of real double/single matrices."""
    if nargout > 2 or not 1 <= len(args) <= 3 or not real_float(args[0]) or len(args[0].shape) != 2:
        return None
    a = args[0]
    rows, cols = a.shape
    columns = _key_columns(args[1:], cols)
    if columns is None:
        return None
    # 0-based row positions: a permutation, so every read below is in range
    # (gathers at device positions, no check read back)
    rows_at = call("cumsum", call("ones", float(rows), 1.0, LIKE, a))
    order = op("-", call("double", rows_at), 1.0)
    for c in reversed(columns):
        key = gather_at(a, call("int32", op("+", order, float((abs(c) - 1) * rows))), (rows, 1))
        _, where = call("sort", key, 1.0, char_array("descend" if c < 0 else "ascend"), nargout=2)
        order = gather_at(order, call("int32", op("-", where, 1.0)), (rows, 1))
    column_starts = (np.arange(cols, dtype=np.float64) * rows).reshape(1, -1)
    sorted_rows = gather_at(a, call("int32", op("+", order, column_starts)), (rows, cols))
    return [sorted_rows, op("+", order, 1.0)][:max(nargout, 1)]


COMPOSED = {
    "fftshift": _half_shift(False),
    "ifftshift": _half_shift(True),
    "sortrows": sortrows_on_device,
}
