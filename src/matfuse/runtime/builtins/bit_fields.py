"""Single bits of integers: bitget bitset.

Bit positions count from 1 (the least significant bit). Integer classes use
their own width; doubles hold nonnegative integers of up to 53 bits. Inputs
broadcast with MATLAB's implicit expansion; the result has the class of A.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._math_support import numeric_array
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import canonical

_DOUBLE_BITS = 53


def _operands(a: Any, bit: Any, fn: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(A as int64/uint64 values, broadcast bit positions, A's array, bit width)."""
    arr = numeric_array(a, fn)
    if arr.dtype.kind == "c":
        raise MatlabError(f"MATLAB:{fn}:complexInput", "Inputs must be real.")
    if arr.dtype.kind in "iu":
        width = arr.dtype.itemsize * 8
        values = arr.astype(np.uint64 if arr.dtype.kind == "u" else np.int64)
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
    return values, pos.astype(np.int64), arr, width


def _bit_masks(pos: np.ndarray, signed: bool) -> np.ndarray:
    """1 << (pos-1) in a dtype matching the values."""
    masks = np.left_shift(np.uint64(1), (pos - 1).astype(np.uint64))
    return masks.view(np.int64) if signed else masks


@builtin("bitget", category="elementwise", nargin=(2, 3))
def bitget(a: Any, bit: Any, assumedtype: Any = None) -> Any:
    """Bit at position bit (1 = least significant) of each element, in A's class."""
    values, pos, arr, _ = _operands(a, bit, "bitget")
    signed = values.dtype == np.int64
    bits = (np.bitwise_and(values, _bit_masks(pos, signed)) != 0)
    out_dtype = arr.dtype if arr.dtype.kind in "iuf" else np.dtype(np.float64)
    return canonical(bits.astype(out_dtype))


@builtin("bitset", category="elementwise", nargin=(2, 4))
def bitset(a: Any, bit: Any, value: Any = 1.0, assumedtype: Any = None) -> Any:
    """A with the bit at position bit set to value (1 by default, or 0)."""
    values, pos, arr, _ = _operands(a, bit, "bitset")
    signed = values.dtype == np.int64
    flags = numeric_array(value, "bitset")
    try:
        values, pos, flags = np.broadcast_arrays(values, pos, flags)
    except ValueError:
        raise MatlabError("MATLAB:sizeDimensionsMustMatch", "Arrays have incompatible sizes for this operation.") from None
    masks = _bit_masks(pos, signed)
    out = np.where(flags != 0, np.bitwise_or(values, masks), np.bitwise_and(values, ~masks))
    out_dtype = arr.dtype if arr.dtype.kind in "iuf" else np.dtype(np.float64)
    return canonical(out.astype(out_dtype))
