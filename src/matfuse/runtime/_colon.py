"""The colon operator ``a:b`` / ``a:d:b`` on host values.

MATLAB computes the element count with a small tolerance so that
``0:0.1:1`` has 11 elements, and fills from both ends so that the last
element is ``b`` exactly when the range hits it. Integer, single and char
operands give ranges of their class.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._limits import check_allocation, max_size_error
from matfuse.runtime._classrules import INTEGER_SET, convert, float_to_int
from matfuse.runtime.values import CHAR_DTYPE, canonical, char_codes, class_of, to_array


def _scalar(v: Any) -> tuple[float | None, str]:
    """(value, class) of a colon operand; value None for an empty operand."""
    t = type(v)
    if t is float:
        return v, "double"
    if t is bool:
        return float(v), "logical"
    if t is not np.ndarray and t is not complex:
        raise MatlabError("MATLAB:colon:invalidInput",
                          f"Colon operands must be real scalars of a numeric, logical or char type; "
                          f"got {class_of(v)}.")
    arr = to_array(v)
    cls = class_of(arr)
    if arr.size == 0:
        return None, cls
    first = arr.reshape(-1, order="F")[0]
    if arr.dtype == CHAR_DTYPE:
        return float(char_codes(arr).reshape(-1, order="F")[0]), "char"
    if np.iscomplexobj(first):
        first = first.real
    if arr.dtype.kind in "iu":
        return int(first), cls
    return float(first), cls


def colon_values(start: Any, step: Any, stop: Any) -> Any:
    """``start:step:stop`` (``step`` None means 1) with MATLAB's class rules."""
    a, ca = _scalar(start)
    b, cb = _scalar(stop)
    if step is None:
        d, cd = 1.0, None
    else:
        d, cd = _scalar(step)
    classes = [c for c in (ca, cd, cb) if c is not None]
    int_classes = {c for c in classes if c in INTEGER_SET}
    if len(int_classes) > 1:
        raise MatlabError("MATLAB:mixedClasses",
                          "Colon operands must be all the same type, or mixed with real double scalar values.")
    if int_classes:
        cls = int_classes.pop()
    elif "single" in classes:
        cls = "single"
    elif ca == "char" and cb == "char" and cd in (None, "char", "double"):
        cls = "char"
    else:
        cls = "double"
    if a is None or b is None or d is None:
        return _empty_row(cls)
    if cls in INTEGER_SET:
        return _integer_range(a, d, b, cls)
    values = _float_range(float(a), float(d), float(b), 4 if cls == "single" else 8)
    if cls == "single":
        return values.astype(np.float32)
    if cls == "char":
        return convert(values, "char")
    return canonical(values)


# The largest element count MATLAB can address on 64-bit platforms.
_MAX_NUMEL = 2.0 ** 48


def _empty_row(cls: str) -> Any:
    dtype = np.dtype(cls) if cls in INTEGER_SET else (
        CHAR_DTYPE if cls == "char" else np.float32 if cls == "single" else np.float64)
    return np.zeros((1, 0), dtype=dtype)


def _float_range(a: float, d: float, b: float, itemsize: int = 8) -> np.ndarray:
    if math.isnan(a) or math.isnan(d) or math.isnan(b):
        return np.full((1, 1), np.nan)
    if d == 0 or (d > 0 and a > b) or (d < 0 and a < b):
        return np.zeros((1, 0))
    if math.isinf(a) or math.isinf(b):
        if a == b:
            return np.full((1, 1), a)
        raise max_size_error()
    if math.isinf(d):
        return np.full((1, 1), a)
    q = (b - a) / d
    if not q < _MAX_NUMEL:             # beyond addressable (or b - a overflowed)
        raise max_size_error()
    tol = 2.0 * np.finfo(np.float64).eps * max(abs(a), abs(b)) / abs(d)
    n = int(math.floor(q + tol)) + 1
    check_allocation((1, n), itemsize)
    k = np.arange(n, dtype=np.float64)
    values = a + k * d
    # Fill the second half from the end so the last element lands on b
    # exactly; with an even number of intervals the middle element is the
    # midpoint (a + b)/2 (MATLAB's colon algorithm).
    if abs(q - (n - 1)) <= tol:
        half = n // 2
        values[half:] = b - (n - 1 - k[half:]) * d
        if n % 2 == 1 and n > 1:
            values[half] = (a + b) / 2
    return values.reshape(1, n)


def _integer_range(a: float | int, d: float | int, b: float | int, cls: str) -> np.ndarray:
    if isinstance(d, float) and (math.isnan(d) or d != math.floor(d)):
        raise MatlabError("MATLAB:colon:integerStep",
                          "Colon operands with integer class must have integer-valued steps.")
    ai = int(float_to_int(np.array([[a]], dtype=np.float64), cls)[0, 0]) if isinstance(a, float) else a
    bi = int(float_to_int(np.array([[b]], dtype=np.float64), cls)[0, 0]) if isinstance(b, float) else b
    di = int(d)
    if di == 0 or (di > 0 and ai > bi) or (di < 0 and ai < bi):
        return np.zeros((1, 0), dtype=np.dtype(cls))
    n = (bi - ai) // di + 1
    if n >= _MAX_NUMEL:
        raise max_size_error()
    check_allocation((1, n), np.dtype(cls).itemsize)
    return np.array([ai + i * di for i in range(n)], dtype=np.dtype(cls)).reshape(1, n)

