"""Single bits of integers: bitget bitset.

Bit positions count from 1 (the least significant bit). Integer classes use
their own width; doubles hold nonnegative integers of up to 53 bits. Inputs
broadcast with MATLAB's implicit expansion; the result has the class of A.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.builtins._math_support import numeric_array
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import CLASS_DTYPES, INTEGER_CLASSES, canonical, to_str

_DOUBLE_BITS = 53


def _operands(a: Any, bit: Any, fn: str, assumed: Any = None,
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, np.dtype | None]:
    """(A as int64/uint64 values, broadcast bit positions, A's array, bit
    width, the assumed integer class of double A or None)."""
    arr = numeric_array(a, fn)
    if arr.dtype.kind == "c":
        raise MatlabError(f"MATLAB:{fn}:complexInput", "Inputs must be real.")
    assumed_dtype = None
    if arr.dtype.kind in "iu":
        width = arr.dtype.itemsize * 8
        values = arr.astype(np.uint64 if arr.dtype.kind == "u" else np.int64)
    elif assumed is not None:
        # double A taken as the named integer class (signed: negative values)
        name = to_str(assumed) if is_text(assumed) else ""
        if name not in INTEGER_CLASSES:
            raise MatlabError(f"MATLAB:{fn}:invalidAssumedType",
                              "ASSUMEDTYPE must be an integer type name.")
        assumed_dtype = np.dtype(CLASS_DTYPES[name])
        info = np.iinfo(assumed_dtype)
        if np.any(arr != np.floor(arr)) or np.any(arr < info.min) or np.any(arr > info.max):
            raise MatlabError(f"MATLAB:{fn}:outOfRange",
                              "Double inputs must have integer values in the range of ASSUMEDTYPE.")
        width = info.bits
        values = arr.astype(assumed_dtype).astype(
            np.int64 if assumed_dtype.kind == "i" else np.uint64)
    else:
        width = _DOUBLE_BITS
        if np.any(arr < 0) or np.any(arr != np.floor(arr)) or np.any(arr > 2.0 ** 53):
            raise MatlabError(f"MATLAB:{fn}:outOfRange",
                              "Double inputs must have integer values in the range of ASSUMEDTYPE.")
        values = arr.astype(np.uint64)
    pos = numeric_array(bit, fn).astype(np.float64)
    if np.any(pos < 1) or np.any(pos > width) or np.any(pos != np.floor(pos)):
        raise MatlabError(f"MATLAB:{fn}:outOfRange" if fn == "bitget" else "MATLAB:bitset:outOfRange",
                          f"Bit position must be an integer in the range [1, {width}].")
    try:
        values, pos = np.broadcast_arrays(values, pos)
    except ValueError:
        raise MatlabError("MATLAB:sizeDimensionsMustMatch", "Arrays have incompatible sizes for this operation.") from None
    return values, pos.astype(np.int64), arr, width, assumed_dtype


def _bit_masks(pos: np.ndarray, signed: bool) -> np.ndarray:
    """1 << (pos-1) in a dtype matching the values."""
    masks = np.left_shift(np.uint64(1), (pos - 1).astype(np.uint64))
    return masks.view(np.int64) if signed else masks


@builtin("bitget", category="elementwise", nargin=(2, 3))
def bitget(a: Any, bit: Any, assumedtype: Any = None) -> Any:
    """Bit at position bit (1 = least significant) of each element, in A's
    class; bitget(A, bit, assumedtype) reads double A as that integer class."""
    values, pos, arr, _, _ = _operands(a, bit, "bitget", assumedtype)
    signed = values.dtype == np.int64
    bits = (np.bitwise_and(values, _bit_masks(pos, signed)) != 0)
    out_dtype = arr.dtype if arr.dtype.kind in "iuf" else np.dtype(np.float64)
    return canonical(bits.astype(out_dtype))


@builtin("bitset", category="elementwise", nargin=(2, 4))
def bitset(a: Any, bit: Any, value: Any = 1.0, assumedtype: Any = None) -> Any:
    """A with the bit at position bit set to value (1 by default, or 0);
    bitset(A, bit, assumedtype) / bitset(A, bit, V, assumedtype) treat
    double A as that integer class."""
    if is_text(value):
        value, assumedtype = 1.0, value
    values, pos, arr, _, assumed_dtype = _operands(a, bit, "bitset", assumedtype)
    signed = values.dtype == np.int64
    flags = numeric_array(value, "bitset")
    try:
        values, pos, flags = np.broadcast_arrays(values, pos, flags)
    except ValueError:
        raise MatlabError("MATLAB:sizeDimensionsMustMatch", "Arrays have incompatible sizes for this operation.") from None
    masks = _bit_masks(pos, signed)
    out = np.where(flags != 0, np.bitwise_or(values, masks), np.bitwise_and(values, ~masks))
    if assumed_dtype is not None:
        out = out.astype(assumed_dtype)    # a set sign bit reads as negative
    out_dtype = arr.dtype if arr.dtype.kind in "iuf" else np.dtype(np.float64)
    return canonical(out.astype(out_dtype))
