"""Text conversions: cellstr, string, dec2bin/bin2dec, dec2hex/hex2dec."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._limits import check_allocation
from matfuse.runtime.builtins._text_args import make_char, string_array, text_arg, whole_number
from matfuse.runtime.builtins.number_text import num2str
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    DeviceValue,
    StringArray,
    canonical,
    char_rows,
    class_of,
    is_char,
    to_array,
)


@builtin("cellstr", category="strings", nargin=(1, 1))
def cellstr(value: Any) -> Any:
    """Cell array of character vectors (trailing blanks of char rows removed)."""
    if isinstance(value, CellArray):
        text_arg(value, "cellstr")
        return value
    if isinstance(value, StringArray):
        items = ["" if s is None else s for s in value.data.reshape(-1, order="F")]
        return CellArray.from_list([make_char(s) if s else np.zeros((0, 0), dtype=CHAR_DTYPE) for s in items],
                                   value.data.shape)
    if is_char(value):
        if value.size == 0:
            return CellArray.from_list([np.zeros((0, 0), dtype=CHAR_DTYPE)], (1, 1))
        rows = ["".join(value[r, :].tolist()).rstrip(" \t\0") for r in range(value.shape[0])]
        return CellArray.from_list([make_char(r) if r else np.zeros((1, 0), dtype=CHAR_DTYPE) for r in rows],
                                   (len(rows), 1))
    raise MatlabError("MATLAB:cellstr:InputClass",
                      "Input must be a string, character array, or cell array of character vectors.")


@builtin("string", category="strings", nargin=(0, 1))
def string(value: Any = None) -> Any:
    """Convert to a string array."""
    if value is None:
        return StringArray.scalar("")
    if isinstance(value, DeviceValue):
        value = value.gather()
    if isinstance(value, StringArray):
        return value
    if is_char(value):
        if value.ndim == 2 and value.shape[0] <= 1:
            return StringArray.scalar("".join(value.reshape(-1).tolist()))
        rows = ["".join(value[r, :].tolist()) for r in range(value.shape[0])]
        return string_array(rows, (len(rows), 1))
    if isinstance(value, CellArray):
        items = []
        for e in value.data.reshape(-1, order="F"):
            if is_char(e) or isinstance(e, StringArray):
                items.append(text_arg(e, "string").items[0] if e.size else "")
            elif type(e) in (float, bool) or type(e) is np.ndarray:
                items.append(_number_string(e))
            else:
                raise MatlabError("MATLAB:string:MustBeCellOfText",
                                  "Conversion from cell failed. Element 1 must be convertible to a string scalar.")
        return string_array(items, value.data.shape)
    if type(value) in (float, bool) or type(value) is np.ndarray:
        arr = to_array(value)
        items = [_number_string(v) for v in arr.reshape(-1, order="F")]
        return string_array(items, arr.shape)
    raise MatlabError("MATLAB:string:UnsupportedClass",
                      f"Conversion to string from {class_of(value)} is not possible.")


def _number_string(v: Any) -> str | None:
    arr = to_array(v) if not isinstance(v, np.generic) else np.asarray(v).reshape(1, 1)
    if arr.dtype == np.bool_:
        return "true" if bool(arr.reshape(-1)[0]) else "false"
    x = arr.reshape(-1)[0]
    if arr.dtype.kind == "f" and math.isnan(float(x)):
        return None
    if arr.dtype.kind in "iu":
        return str(int(x))
    # string(pi) keeps 5 significant digits like num2str's default ('3.1416').
    if arr.dtype.kind == "c":
        return "".join(num2str(arr).reshape(-1).tolist())
    xf = float(x)
    if math.isinf(xf):
        return "Inf" if xf > 0 else "-Inf"
    if xf == math.floor(xf) and abs(xf) < 1e15:
        return str(int(xf))
    return f"{xf:.5g}" if abs(xf) >= 1e-5 else f"{xf:.5g}"


# ------------------------------------------------------------ bases
def _integer_values(value: Any, fn: str) -> tuple[list[int], int]:
    """Integer values (column-major) and the two's-complement width for the
    negatives: the input's integer class width, or for other classes the
    smallest of 8/16/32/64 bits holding the most negative value (MATLAB
    R2020a+)."""
    if isinstance(value, DeviceValue):
        value = value.gather()
    if not (type(value) in (float, bool) or (type(value) is np.ndarray and value.dtype.kind in "fiub")):
        raise MatlabError(f"MATLAB:{fn}:InvalidInput", "Input must be a real numeric array.")
    arr = to_array(value)
    if arr.dtype.kind == "f" and (not np.all(np.isfinite(arr)) or np.any(arr != np.floor(arr))):
        raise MatlabError(f"MATLAB:{fn}:MustBeNonnegativeInteger" if fn == "dec2hex" else f"MATLAB:{fn}:InputMustBeNonnegativeInteger",
                          "Input must be integers." if fn == "dec2hex" else "D must be an integer.")
    flat = arr.reshape(-1, order="F")
    values = [int(v) for v in flat.tolist()]
    lowest = min(values, default=0)
    if lowest >= 0:
        return values, 0
    if arr.dtype.kind in "iu":
        return values, arr.dtype.itemsize * 8
    for bits in (8, 16, 32, 64):
        if lowest >= -(2 ** (bits - 1)):
            return values, bits
    raise MatlabError(f"MATLAB:{fn}:InputOutOfRange", "Negative values must be representable in int64.")


def _to_base(value: Any, min_digits: Any, base: int, fn: str) -> Any:
    values, bits = _integer_values(value, fn)
    width = whole_number(min_digits, fn, "Number of digits") if min_digits is not None else 0
    texts = []
    for n in values:
        if n < 0:
            n += 2 ** bits
        texts.append(format(n, "b") if base == 2 else format(n, "X"))
    if not texts:
        return np.zeros((0, 0), dtype=CHAR_DTYPE)
    width = max([width] + [len(t) for t in texts])
    check_allocation((len(texts), width), CHAR_DTYPE.itemsize)
    return char_rows([t.rjust(width, "0") for t in texts])


@builtin("dec2bin", category="strings", nargin=(1, 2))
def dec2bin(value: Any, min_digits: Any = None) -> Any:
    """Binary digits of integers as a char array (negatives in two's complement)."""
    return _to_base(value, min_digits, 2, "dec2bin")


@builtin("dec2hex", category="strings", nargin=(1, 2))
def dec2hex(value: Any, min_digits: Any = None) -> Any:
    """Hexadecimal digits of integers as a char array (negatives in two's complement)."""
    return _to_base(value, min_digits, 16, "dec2hex")


def _as_double(value: int) -> float:
    """An integer as a double; Inf beyond the largest double (as MATLAB gives)."""
    return float(value) if value.bit_length() <= 1023 else math.inf


def _from_base(text: Any, base: int, fn: str) -> Any:
    arg = text_arg(text, fn)
    values = []
    for s in arg.items:
        t = (s or "").replace(" ", "")
        if base == 16 and t[:2].lower() == "0x":
            t = t[2:]
        try:
            values.append(_as_double(int(t, base)) if t else 0.0)
        except ValueError:
            if base == 2:
                raise MatlabError("MATLAB:bin2dec:IllegalBinaryString",
                                  "Binary character vector may consist only of characters 0 and 1.") from None
            raise MatlabError("MATLAB:hex2dec:IllegalHexadecimal",
                              "Input character vector must contain only hexadecimal digits.") from None
    if len(values) == 1:
        return values[0]
    return canonical(np.array(values, dtype=np.float64).reshape(-1, 1))


@builtin("bin2dec", category="strings", nargin=(1, 1))
def bin2dec(text: Any) -> Any:
    """Value of binary text."""
    return _from_base(text, 2, "bin2dec")


@builtin("hex2dec", category="strings", nargin=(1, 1))
def hex2dec(text: Any) -> Any:
    """Value of hexadecimal text."""
    return _from_base(text, 16, "hex2dec")
