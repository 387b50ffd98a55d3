"""Bit-wise functions: bitand bitor bitxor bitshift bitcmp.

Integer classes operate on their two's-complement bits; doubles must hold
nonnegative integers up to flintmax and are processed as 53-bit unsigned
values (as MATLAB does).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import text_arg
from matfuse.runtime.builtins._math_support import binary_inputs, finish, numeric_array
from matfuse.runtime.builtins.elementwise_math import binary_spec, unary_spec
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import CLASS_DTYPES, INTEGER_CLASSES

_FLINTMAX = 2.0 ** 53


def _double_bits(a: np.ndarray, fn: str) -> np.ndarray:
    if a.dtype.kind == "c":
        raise MatlabError(f"MATLAB:{fn}:complexInput", "Inputs must be real.")
    if np.any(a < 0) or np.any(a != np.floor(a)) or np.any(a > _FLINTMAX) or np.any(np.isnan(a)):
        raise MatlabError(f"MATLAB:{fn}:outOfRange",
                          "Double inputs must have integer values in the range of ASSUMEDTYPE.")
    return a.astype(np.uint64)


def _binary_bitop(name: str, op: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> None:
    def impl(x: Any, y: Any, assumed: Any = None) -> Any:
        a, b, int_dtype = binary_inputs(x, y, name)
        if int_dtype is None and assumed is not None:
            # doubles taken as the named integer class (negative values
            # allowed for signed classes), the result double again
            dtype = CLASS_DTYPES[_assumed_type(assumed, name)]
            out = op(_checked_int(a, dtype, name), _checked_int(b, dtype, name))
            return finish(out.astype(np.float64).astype(a.dtype if a.dtype.kind == "f"
                                                         else np.float64))
        if int_dtype is not None:
            ia = a if a.dtype == int_dtype else _checked_int(a, int_dtype, name)
            ib = b if b.dtype == int_dtype else _checked_int(b, int_dtype, name)
            return finish(op(ia, ib))
        out = op(_double_bits(a, name), _double_bits(b, name))
        return finish(out.astype(a.dtype if a.dtype.kind == "f" else np.float64))

    impl.__doc__ = (f"Bit-wise {name[3:].upper()} of nonnegative integers; "
                    f"{name}(A, B, assumedtype) takes doubles as that integer class.")
    impl.__name__ = name
    builtin(name, category="elementwise", nargin=(2, 3), gpu=binary_spec(name), fusion=name)(impl)


def _checked_int(values: np.ndarray, dtype: np.dtype, fn: str) -> np.ndarray:
    """A double operand combined with an integer class must fit that class."""
    info = np.iinfo(dtype)
    if np.any(values != np.floor(values)) or np.any(values < info.min) or np.any(values > info.max):
        raise MatlabError(f"MATLAB:{fn}:outOfRange",
                          "Double inputs must have integer values in the range of ASSUMEDTYPE.")
    return values.astype(dtype)


_binary_bitop("bitand", np.bitwise_and)
_binary_bitop("bitor", np.bitwise_or)
_binary_bitop("bitxor", np.bitwise_xor)


@builtin("bitshift", category="elementwise", nargin=(2, 3), gpu=binary_spec("bitshift"),
         fusion="bitshift")
def bitshift(x: Any, k: Any, assumed: Any = None) -> Any:
    """Shift bits left (k > 0) or right (k < 0); overflowing bits are dropped."""
    arr = numeric_array(x, "bitshift")
    shifts = numeric_array(k, "bitshift")
    if shifts.dtype.kind == "c" or np.any(shifts != np.round(shifts)):
        raise MatlabError("MATLAB:bitshift:nonIntegerShift", "N must be integer-valued.")
    a, s, _ = binary_inputs(arr, shifts.astype(np.float64), "bitshift")
    s = s.astype(np.int64)
    if arr.dtype.kind in "iu":
        return finish(_shift_integers(a.astype(arr.dtype), s))
    float_class = arr.dtype if arr.dtype.kind == "f" else np.float64
    if assumed is not None:
        # the values as that integer class (signed types keep their sign)
        dtype = CLASS_DTYPES[_assumed_type(assumed, "bitshift")]
        shifted = _shift_integers(_checked_int(a, dtype, "bitshift"), s)
        return finish(shifted.astype(np.float64).astype(float_class))
    ua = _double_bits(a, "bitshift")
    mask = np.uint64((1 << 53) - 1)
    left = np.where(s > 0, np.minimum(s, 63), 0).astype(np.uint64)
    right = np.where(s < 0, np.minimum(-s, 63), 0).astype(np.uint64)
    out = (np.left_shift(ua, left) & mask)
    out = np.where(s >= 64, np.uint64(0), out)
    out = np.right_shift(out, right)
    return finish(out.astype(np.float64).astype(float_class))


def _shift_integers(ia: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Shift an integer array by ``s`` bits (bits shifted out are dropped;
    right shifts of signed values keep the sign)."""
    bits = ia.dtype.itemsize * 8
    left = np.where(s > 0, np.minimum(s, bits), 0).astype(ia.dtype)
    right = np.where(s < 0, np.minimum(-s, bits - 1), 0).astype(ia.dtype)
    out = np.left_shift(ia, left)
    out = np.where(s >= bits, 0, out).astype(ia.dtype)
    return np.right_shift(out, right)


def _assumed_type(v: Any, fn: str) -> str:
    name = text_arg(v, fn, "assumed type")
    if name not in INTEGER_CLASSES:
        raise MatlabError(f"MATLAB:{fn}:invalidAssumedType",
                          "ASSUMEDTYPE must be an integer type name.")
    return name


@builtin("bitcmp", category="elementwise", nargin=(1, 2), gpu=unary_spec("bitcmp"), fusion="bitcmp")
def bitcmp(x: Any, assumed: Any = None) -> Any:
    """Bit-wise complement; doubles assume 'uint64' unless told otherwise."""
    arr = numeric_array(x, "bitcmp")
    if arr.dtype.kind in "iu":
        return finish(np.invert(arr))
    if arr.dtype.kind == "c":
        raise MatlabError("MATLAB:bitcmp:complexInput", "Inputs must be real.")
    cls = _assumed_type(assumed, "bitcmp") if assumed is not None else "uint64"
    dtype = CLASS_DTYPES[cls]
    info = np.iinfo(dtype)
    if np.any(arr != np.floor(arr)) or np.any(arr < info.min) or np.any(arr > info.max):
        raise MatlabError("MATLAB:bitcmp:outOfRange",
                          "Double inputs must have integer values in the range of ASSUMEDTYPE.")
    out = np.invert(arr.astype(dtype)).astype(np.float64)
    return finish(out.astype(arr.dtype if arr.dtype.kind == "f" else np.float64))
