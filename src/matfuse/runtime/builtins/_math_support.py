"""Input/output conventions shared by the elementwise math builtins.

MATLAB's class rules for math functions: logical and char inputs compute in
double; single stays single; integer classes are accepted only by the
functions that say so (``abs``, ``mod``, ``floor`` ...), others raise
``MATLAB:UndefinedFunction``. Results whose imaginary parts are all zero are
returned real, as MATLAB does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._limits import check_allocation  # noqa: F401 - re-exported
from matfuse.runtime.values import (
    CHAR_DTYPE,
    DeviceValue,
    canonical,
    char_codes,
    class_of,
)

_INT_KINDS = ("i", "u")


def type_error(fn: str, v: Any) -> MatlabError:
    """MATLAB's error for a math function given an unsupported class."""
    if type(v) is np.ndarray and v.dtype.kind in _INT_KINDS:
        return MatlabError(
            "MATLAB:UndefinedFunction",
            f"Check for incorrect argument data type or missing argument in call to function '{fn}'.")
    return MatlabError("MATLAB:UndefinedFunction",
                       f"Undefined function '{fn}' for input arguments of type '{class_of(v)}'.")


def numeric_array(v: Any, fn: str) -> np.ndarray:
    """Any numeric/logical/char value as an ndarray (char/logical -> double);
    integer classes are kept."""
    t = type(v)
    if t is float:
        return np.array([[v]])
    if t is bool:
        return np.array([[1.0 if v else 0.0]])
    if t is complex:
        return np.array([[v]], dtype=np.complex128)
    if isinstance(v, DeviceValue):
        return numeric_array(v.gather(), fn)
    if t is np.ndarray:
        kind = v.dtype.kind
        if kind == "b":
            return v.astype(np.float64)
        if v.dtype == CHAR_DTYPE:
            return char_codes(v).astype(np.float64)
        if kind in "fciu":
            return v
    raise type_error(fn, v)


def double_values(v: Any, fn: str) -> np.ndarray:
    """A numeric, logical or char argument as float64 (chars as their codes;
    other classes get MATLAB's type error, complex MATLAB's "expected real")."""
    arr = numeric_array(v, fn)
    if arr.dtype.kind == "c":
        raise MatlabError("MATLAB:expectedReal", "Expected input to be real.")
    return arr.astype(np.float64)


def float_array(v: Any, fn: str) -> np.ndarray:
    """Numeric input for a function defined only on double/single."""
    arr = numeric_array(v, fn)
    if arr.dtype.kind in _INT_KINDS:
        raise type_error(fn, v)
    return arr


def is_integer_array(arr: np.ndarray) -> bool:
    return arr.dtype.kind in _INT_KINDS


def finish(result: Any) -> Any:
    """Narrow all-zero-imaginary complex results to real; canonical form."""
    if type(result) is np.ndarray and result.dtype.kind == "c":
        if not np.any(result.imag):
            result = np.ascontiguousarray(result.real)
    return canonical(result)


def saturate_to(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Round half away from zero and saturate float values into an integer
    dtype (MATLAB's conversion rule); NaN becomes 0."""
    info = np.iinfo(dtype)
    with np.errstate(invalid="ignore"):
        rounded = np.where(np.isnan(values), 0.0, round_half_away(values))
        clipped = np.clip(rounded, float(info.min), float(info.max))
    out = clipped.astype(dtype)
    # float(2**63-1) rounds up to 2**63: fix the top end explicitly.
    if dtype.itemsize == 8:
        out = np.where(rounded >= float(info.max), info.max, out).astype(dtype)
    return out


def round_half_away(x: np.ndarray) -> np.ndarray:
    """Round to nearest, ties away from zero (exact: no ``x + 0.5`` error)."""
    whole = np.trunc(x)
    frac = x - whole
    return whole + np.where(np.abs(frac) >= 0.5, np.sign(x), 0.0).astype(x.dtype)


def matlab_broadcast(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Implicit expansion with MATLAB's trailing-dimension alignment."""
    if a.shape == b.shape:
        return a, b
    nd = max(a.ndim, b.ndim)
    if a.ndim < nd:
        a = a.reshape(a.shape + (1,) * (nd - a.ndim))
    if b.ndim < nd:
        b = b.reshape(b.shape + (1,) * (nd - b.ndim))
    for da, db in zip(a.shape, b.shape):
        if da != db and da != 1 and db != 1:
            raise MatlabError("MATLAB:sizeDimensionsMustMatch",
                              "Arrays have incompatible sizes for this operation.")
    return np.broadcast_arrays(a, b)


def binary_inputs(x: Any, y: Any, fn: str, allow_int: bool = True
                  ) -> tuple[np.ndarray, np.ndarray, np.dtype | None]:
    """Two numeric inputs, broadcast, with MATLAB's class combination.

    Returns (a, b, int_dtype): ``int_dtype`` is the integer result class when
    one operand is an integer array (both are then returned as that dtype's
    values in float64/int64 form), else None. single wins over double.
    """
    a = numeric_array(x, fn)
    b = numeric_array(y, fn)
    a_int = a.dtype.kind in _INT_KINDS
    b_int = b.dtype.kind in _INT_KINDS
    int_dtype = None
    if a_int or b_int:
        if not allow_int:
            raise type_error(fn, x if a_int else y)
        if a_int and b_int and a.dtype != b.dtype:
            raise MatlabError("MATLAB:mixedClasses",
                              "Integers can only be combined with integers of the same class, or scalar doubles.")
        int_dtype = a.dtype if a_int else b.dtype
        other = b if a_int else a
        if other.dtype.kind == "c":
            raise MatlabError("MATLAB:mixedClasses",
                              "Complex integer arithmetic is not supported.")
    elif a.dtype == np.float32 or b.dtype == np.float32 or a.dtype == np.complex64 \
            or b.dtype == np.complex64:
        single = np.complex64 if (a.dtype.kind == "c" or b.dtype.kind == "c") else np.float32
        a = a.astype(single if a.dtype.kind == "c" else np.float32)
        b = b.astype(single if b.dtype.kind == "c" else np.float32)
    a, b = matlab_broadcast(a, b)
    return a, b, int_dtype


def whole_numbers(v: Any, fn: str, identifier: str, message: str) -> np.ndarray:
    """Real, finite, integer-valued input as an int64 array (same shape);
    anything else raises ``identifier``/``message``."""
    arr = numeric_array(v, fn)
    if arr.dtype.kind in _INT_KINDS:
        if arr.dtype == np.uint64 and arr.size and int(arr.max()) > np.iinfo(np.int64).max:
            raise MatlabError(identifier, message)
        return arr.astype(np.int64)
    if arr.dtype.kind == "c" or not np.all(np.isfinite(arr)) or np.any(arr != np.floor(arr)) \
            or np.any(np.abs(arr) >= 2.0 ** 62):
        raise MatlabError(identifier, message)
    return arr.astype(np.int64)
