"""Device paths of ``toeplitz``, ``hankel`` and ``vander``.

A Toeplitz or Hankel matrix is one gather: the defining vectors are joined
into one column on the device, and the matrix is that column indexed by a
matrix of positions (``T(i,j) = v(n + i - j)``, ``H(i,j) = v(i + j - 1)``)
made on the host from the sizes alone. A diagonal conflict (``c(1)`` vs
``r(1)``, ``c(end)`` vs ``r(1)`` for Hankel) reads those two numbers back
to give MATLAB's warning. ``vander(v)`` is ``v(:) .^ (n-1:-1:0)``.

Complex, empty or 64-bit integer data, and non-vector arguments, return
None: the dispatcher's counted host fallback, which raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import FLOAT, call, index, op, size_of
from matfuse.runtime._matrixops import emit_warning
from matfuse.runtime.values import DeviceValue, char_array

_LIKE = char_array("like")
_CLASSES = FLOAT + ("logical",)


def _column(v: Any) -> Any:
    """A real non-empty vector of double/single/logical as a column (host
    vectors stay on the host), or None."""
    shape = size_of(v)
    if len(shape) != 2 or min(shape) != 1:
        return None
    if isinstance(v, GpuArray):
        if v.is_complex() or v.matlab_class not in _CLASSES:
            return None
    elif type(v) is float:
        return np.array([[v]])
    elif not (type(v) is np.ndarray and v.dtype.kind in "fb"):
        return None
    return call("reshape", v, float(shape[0] * shape[1]), 1.0)


def _class_of(v: Any) -> str:
    if isinstance(v, DeviceValue):
        return v.matlab_class
    return {"b": "logical", "f": "single" if v.dtype == np.float32 else "double"}[v.dtype.kind]


def _float_class(col: Any, row: Any) -> tuple[Any, Any]:
    """Both vectors in the result's class: logical data gives double, single
    with double gives single (as concatenation does)."""
    classes = {_class_of(col), _class_of(row)}
    cls = "single" if "single" in classes else "double"
    return tuple(v if _class_of(v) == cls else call(cls, v) for v in (col, row))


def _differ(a: Any, b: Any) -> bool:
    """Whether two 1x1 values differ (NaN differs from itself), read back."""
    flag = op("~=", a, b)
    if isinstance(flag, DeviceValue):
        flag = flag.gather()
    return bool(np.asarray(flag).reshape(-1)[0])


def _one_device(*vs: Any) -> bool:
    return any(isinstance(v, GpuArray) for v in vs)


def toeplitz_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``toeplitz(c, r)`` and the symmetric ``toeplitz(r)`` of real vectors."""
    if nargout > 1 or len(args) not in (1, 2) or not _one_device(*args):
        return None
    col = _column(args[0])
    row = col if len(args) == 1 else _column(args[1])
    if col is None or row is None:
        return None
    col, row = _float_class(col, row)
    if len(args) == 2 and _differ(index(col, 1.0), index(row, 1.0)):
        emit_warning("MATLAB:toeplitz:DiagonalConflict",
                     "First element of input column does not match first element of input row. "
                     "Column wins diagonal conflict.")
    m, n = size_of(col)[0], size_of(row)[0]
    data = call("vertcat", index(row, np.arange(n, 1, -1, dtype=np.float64).reshape(-1, 1)), col) \
        if n > 1 else col
    where = n + np.arange(m, dtype=np.float64)[:, None] - np.arange(n, dtype=np.float64)[None, :]
    return [index(data, where)]


def hankel_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``hankel(c)`` (zeros below the anti-diagonal) and ``hankel(c, r)``."""
    if nargout > 1 or len(args) not in (1, 2) or not _one_device(*args):
        return None
    col = _column(args[0])
    if col is None:
        return None
    m = size_of(col)[0]
    if len(args) == 1:
        row = call("zeros", float(m), 1.0, _LIKE, col)
    else:
        row = _column(args[1])
        if row is None:
            return None
    col, row = _float_class(col, row)
    n = size_of(row)[0]
    if len(args) == 2 and _differ(index(col, float(m)), index(row, 1.0)):
        emit_warning("MATLAB:hankel:AntiDiagonalConflict",
                     "Last element of input column does not match first element of input row. "
                     "Column wins anti-diagonal conflict.")
    data = call("vertcat", col, index(row, np.arange(2, n + 1, dtype=np.float64).reshape(-1, 1))) \
        if n > 1 else col
    where = np.arange(m, dtype=np.float64)[:, None] + np.arange(1, n + 1, dtype=np.float64)[None, :]
    return [index(data, where)]


def vander_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``vander(v)``: column ``j`` is ``v(:) .^ (n - j)``."""
    if nargout > 1 or len(args) != 1 or not isinstance(args[0], GpuArray):
        return None
    col = _column(args[0])
    if col is None:
        return None
    if col.matlab_class == "logical":
        col = call("double", col)
    n = size_of(col)[0]
    return [op(".^", col, np.arange(n - 1, -1, -1, dtype=np.float64).reshape(1, -1))]


COMPOSED = {
    "toeplitz": toeplitz_on_device,
    "hankel": hankel_on_device,
    "vander": vander_on_device,
}
