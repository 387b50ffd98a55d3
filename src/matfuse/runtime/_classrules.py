"""MATLAB class rules: which class an operation returns and how values convert.

Shared by operators, concatenation, indexed assignment and the conversion
builtins (``int8``, ``double``, ``cast``...). Everything here works on
ndarrays; callers turn results into canonical values.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CLASS_DTYPES,
    INTEGER_CLASSES,
    char_codes,
    class_of,
    codes_to_char,
)

INTEGER_SET = frozenset(INTEGER_CLASSES)

# Inclusive ranges of the integer classes, as Python ints.
INT_LIMITS: dict[str, tuple[int, int]] = {
    name: (int(np.iinfo(CLASS_DTYPES[name]).min), int(np.iinfo(CLASS_DTYPES[name]).max))
    for name in INTEGER_CLASSES
}

MIXED_INT_MESSAGE = "Integers can only be combined with integers of the same class, or scalar doubles."


def type_error(op_name: str, v: Any) -> MatlabError:
    """MATLAB's error for an operator applied to an unsupported class."""
    return MatlabError("MATLAB:UndefinedFunction",
                       f"Operator '{op_name}' is not supported for operands of type '{class_of(v)}'.")


def arithmetic_class(ca: str, cb: str) -> str:
    """Result class of elementwise arithmetic between classes ``ca``, ``cb``."""
    a_int = ca in INTEGER_SET
    b_int = cb in INTEGER_SET
    if a_int or b_int:
        if a_int and b_int and ca != cb:
            raise MatlabError("MATLAB:mixedClasses", MIXED_INT_MESSAGE)
        return ca if a_int else cb
    if ca == "single" or cb == "single":
        return "single"
    return "double"


def concat_class(classes: list[str]) -> str:
    """Result class of concatenating numeric/char/logical arrays: char wins,
    then the leftmost integer class, then single, double, logical."""
    if "char" in classes:
        return "char"
    for c in classes:
        if c in INTEGER_SET:
            return c
    if "single" in classes:
        return "single"
    if "double" in classes:
        return "double"
    return "logical" if classes else "double"


def assignment_class(lhs: str, rhs: str) -> str:
    """Class of an array after ``lhs(idx) = rhs``: the right side converts to
    the left side's class (``x = true(1,2); x(1) = NaN`` is an error, as in
    MATLAB). An empty ``[]`` left side is handled by the caller."""
    return lhs


# ------------------------------------------------------------- conversions
def round_half_away(x: np.ndarray) -> np.ndarray:
    """Round to nearest, ties away from zero (MATLAB's ``round``)."""
    r = np.round(x)
    with np.errstate(invalid="ignore"):
        ties = np.abs(x - np.trunc(x)) == 0.5
    if np.any(ties):
        r = np.where(ties, np.trunc(x) + np.sign(x), r)
    return r


def float_to_int(x: np.ndarray, cls: str) -> np.ndarray:
    """Real floats to integer class ``cls``: round half away, saturate, NaN->0."""
    dtype = CLASS_DTYPES[cls]
    lo, hi = INT_LIMITS[cls]
    x = np.asarray(x, dtype=np.float64)
    r = round_half_away(x)
    out = np.zeros(r.shape, dtype=dtype)
    # float(hi) may round up past hi (int64), so compare in float and assign ints.
    over = r >= float(hi)
    under = r <= float(lo)
    ok = ~(over | under | np.isnan(r))
    out[ok] = r[ok].astype(dtype)
    out[over] = hi
    out[under] = lo
    return out


def int_to_int(x: np.ndarray, cls: str) -> np.ndarray:
    """Integer array to another integer class with saturation."""
    dtype = CLASS_DTYPES[cls]
    lo, hi = INT_LIMITS[cls]
    src = np.iinfo(x.dtype)
    if src.min >= lo and src.max <= hi:
        return x.astype(dtype)
    if x.dtype == np.uint64 or dtype == np.uint64:
        # Mixed signed/unsigned 64-bit: go through Python ints to stay exact.
        flat = [min(max(int(e), lo), hi) for e in x.reshape(-1, order="F")]
        return np.array(flat, dtype=dtype).reshape(x.shape, order="F")
    return np.clip(x, max(lo, src.min), min(hi, src.max)).astype(dtype)


def convert(arr: np.ndarray, cls: str) -> np.ndarray:
    """Convert an ndarray to MATLAB class ``cls`` (complex kept for floats)."""
    dt = arr.dtype
    if cls in INTEGER_SET:
        if dt.kind in "iu":
            return int_to_int(arr, cls)
        if dt == CHAR_DTYPE:
            return int_to_int(char_codes(arr).astype(np.int64), cls)
        if dt.kind == "c":
            arr = arr.real
        return float_to_int(arr, cls)
    if cls == "double" or cls == "single":
        target = np.float64 if cls == "double" else np.float32
        if dt == CHAR_DTYPE:
            return char_codes(arr).astype(target)
        if dt.kind == "c":
            return arr.astype(np.complex128 if cls == "double" else np.complex64)
        return arr.astype(target)
    if cls == "logical":
        if dt == np.bool_:
            return arr
        if dt == CHAR_DTYPE:
            return char_codes(arr) != 0
        if dt.kind in "fc" and np.any(np.isnan(arr)):
            raise MatlabError("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
        if dt.kind == "c":
            raise MatlabError("MATLAB:nologicalcomplex",
                              "Complex values cannot be converted to logicals.")
        return arr != 0
    if cls == "char":
        if dt == CHAR_DTYPE:
            return arr
        if dt.kind == "c":
            arr = arr.real
        if dt.kind in "fc":
            codes = np.nan_to_num(round_half_away(arr.astype(np.float64)), nan=0.0)
            codes = np.clip(codes, 0, 0x10FFFF)
        else:
            codes = np.clip(arr.astype(np.int64), 0, 0x10FFFF)
        return codes_to_char(codes.astype(np.uint32))
    raise MatlabError("MATLAB:invalidConversion", f"Conversion to {cls} is not possible.")


def drop_zero_imag(arr: np.ndarray) -> np.ndarray:
    """MATLAB drops all-zero imaginary parts from operation results."""
    if arr.dtype.kind == "c" and not np.any(arr.imag):
        return arr.real.copy()
    return arr
