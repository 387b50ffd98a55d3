"""jsonencode and jsondecode with MATLAB's conversion rules.

Encoding: numeric and logical scalars become numbers and true/false, vectors
flat arrays, matrices and N-D arrays nested arrays (row by row), NaN and Inf
``null`` (``'ConvertInfAndNaN', false``: ``NaN``/``Infinity``), char rows and
string scalars strings (missing: ``null``), cells arrays, scalar structs
objects, struct arrays arrays of objects.  ``'PrettyPrint', true`` indents by
two spaces.

Decoding: ``null`` is ``[]``, numbers doubles, true/false logicals, strings
char vectors, objects scalar structs (keys made valid names as
``matlab.lang.makeValidName`` does, then unique); an array of numbers (nulls:
NaN) is a column vector, of booleans a logical column, of equal-shaped
numeric arrays a matrix / N-D array, of objects with the same keys a struct
array (N-by-1); any other array is an N-by-1 cell.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text, text_arg
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    DeviceValue,
    StringArray,
    StructArray,
    canonical,
    char_array,
    class_of,
    to_array,
    to_str,
)


# ----------------------------------------------------------------- encode
class _Encoder:
    def __init__(self, convert_nonfinite: bool):
        self.convert_nonfinite = convert_nonfinite

    def value(self, v: Any) -> Any:
        if isinstance(v, DeviceValue):
            v = v.gather()
        t = type(v)
        if t is CellArray:
            return [self.value(x) for x in v.data.reshape(-1, order="F")]
        if t is StructArray:
            objects = [{f: self.value(e[f]) for f in v.fields} for e in v.data.reshape(-1, order="F")]
            return objects[0] if v.data.size == 1 else objects
        if t is StringArray:
            items = [None if s is None else s for s in v.data.reshape(-1, order="F")]
            if v.data.size == 1:
                return items[0]
            return self._nest(np.array(items, dtype=object).reshape(v.shape, order="F"), lambda s: s)
        if t in (float, bool, complex, np.ndarray):
            arr = to_array(v)
            if arr.dtype == CHAR_DTYPE:
                rows = ["".join(r) for r in arr.reshape(arr.shape[0], -1, order="F").tolist()]
                if arr.shape[0] == 1 and arr.ndim == 2:
                    return rows[0]
                return "" if arr.size == 0 else rows
            if arr.dtype.kind == "c":
                raise MatlabError("MATLAB:json:ComplexNotSupported", "Complex values are not supported.")
            if arr.size == 1:
                return self.scalar(arr.reshape(-1)[0])
            if arr.dtype == np.float64:
                return self._nest(arr.astype(object), self.scalar)
            return self._nest(arr, self.scalar)
        raise MatlabError("MATLAB:json:UnsupportedClass",
                          f"Unable to encode a value of class '{class_of(v)}' as JSON.")

    def _nest(self, arr: np.ndarray, convert: Any) -> Any:
        if arr.ndim == 2 and (arr.shape[0] == 1 or arr.shape[1] == 1) or arr.size == 0:
            return [convert(x) for x in arr.reshape(-1, order="F")]
        return self._rows(arr, convert)

    def _rows(self, arr: np.ndarray, convert: Any) -> Any:
        if arr.ndim == 1:
            return [convert(x) for x in arr]
        return [self._rows(arr[i], convert) for i in range(arr.shape[0])]

    def scalar(self, x: Any) -> Any:
        if isinstance(x, (bool, np.bool_)):
            return bool(x)
        if isinstance(x, np.integer):
            return int(x)
        value = float(x)
        if not math.isfinite(value):
            return None if self.convert_nonfinite else _nonfinite_text(value)
        return _Raw(_number_text(x))


class _Raw(str):
    """JSON text written as is: numbers formatted as MATLAB's jsonencode
    writes them (shortest round trip, whole numbers without '.0'), and
    NaN/Infinity when they are not converted to null."""


def _nonfinite_text(value: float) -> _Raw:
    return _Raw("NaN" if value != value else ("Infinity" if value > 0 else "-Infinity"))


def _number_text(x: Any) -> str:
    """Whole numbers within int64 print as integers; others as RapidJSON
    (which MATLAB's JSON writer uses) prints the shortest round-trip digits:
    plain decimals for exponents up to 21 (``100000000000000000000.0``),
    ``0.000001234`` down to 1e-6, else ``1.234e-7`` / ``1e30``."""
    value = float(x)
    if value.is_integer() and abs(value) < 2.0 ** 63:
        return str(int(value))
    single = isinstance(x, np.float32)
    text = str(np.float32(x)) if single else repr(value)
    sign = "-" if text.startswith("-") else ""
    mantissa, _, exp_text = text.lstrip("-").partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0") or "0"
    # value = 0.digits * 10**kk
    kk = len(whole) + (int(exp_text) if exp_text else 0) if whole != "0" else \
        (int(exp_text) if exp_text else 0) - (len(frac) - len(frac.lstrip("0")))
    digits = digits.rstrip("0") or "0"
    n = len(digits)
    if n <= kk <= 21:
        body = digits + "0" * (kk - n) + ".0"
    elif 0 < kk <= 21:
        body = digits[:kk] + "." + digits[kk:]
    elif -6 < kk <= 0:
        body = "0." + "0" * (-kk) + digits
    elif n == 1:
        body = f"{digits}e{kk - 1}"
    else:
        body = f"{digits[0]}.{digits[1:]}e{kk - 1}"
    return sign + body


def _dump(obj: Any, pretty: bool, indent: int = 0) -> str:
    pad = "  "
    if obj is None:
        return "null"
    if isinstance(obj, bool):
        return "true" if obj else "false"
    if isinstance(obj, _Raw):
        return str(obj)
    if isinstance(obj, int):
        return str(obj)
    if isinstance(obj, str):
        return json.dumps(obj, ensure_ascii=False)
    if isinstance(obj, list):
        if not obj:
            return "[]"
        if not pretty:
            return "[" + ",".join(_dump(x, False) for x in obj) + "]"
        inner = ",\n".join(pad * (indent + 1) + _dump(x, True, indent + 1) for x in obj)
        return "[\n" + inner + "\n" + pad * indent + "]"
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        if not pretty:
            return "{" + ",".join(json.dumps(k) + ":" + _dump(v, False) for k, v in obj.items()) + "}"
        inner = ",\n".join(pad * (indent + 1) + json.dumps(k) + ": " + _dump(v, True, indent + 1)
                           for k, v in obj.items())
        return "{\n" + inner + "\n" + pad * indent + "}"
    raise AssertionError(f"unexpected {type(obj).__name__}")


def _flag(options: dict[str, Any], name: str, default: bool) -> bool:
    v = options.get(name.lower())
    if v is None:
        return default
    return bool(to_array(v).reshape(-1)[0])


@builtin("jsonencode", category="files", nargin=(1, None))
def jsonencode(value: Any, *args: Any) -> Any:
    """Encode a value as JSON text: jsonencode(v, 'PrettyPrint', true,
    'ConvertInfAndNaN', false)."""
    options: dict[str, Any] = {}
    if len(args) % 2:
        raise MatlabError("MATLAB:json:NameValuePairs", "Name-value arguments must come in pairs.")
    for name, v in zip(args[0::2], args[1::2]):
        key = text_arg(name, "jsonencode", "option name").lower()
        if key not in ("prettyprint", "convertinfandnan"):
            raise MatlabError("MATLAB:json:UnknownOption", f"'{to_str(name)}' is not a recognized parameter.")
        options[key] = v
    tree = _Encoder(_flag(options, "ConvertInfAndNaN", True)).value(value)
    return char_array(_dump(tree, _flag(options, "PrettyPrint", False)))


# ----------------------------------------------------------------- decode
def make_valid_name(key: str) -> str:
    """``matlab.lang.makeValidName``: drop white space (capitalising the
    letter after it), invalid characters -> '_', prefix 'x' when the name
    does not start with a letter, truncated to 63 characters."""
    name = re.sub(r"\s+(\w)", lambda m: m.group(1).upper(), key.strip())
    name = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if not name or not name[0].isalpha():
        name = "x" + name
    return name[:63]


def _unique_names(keys: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for k in keys:
        name = make_valid_name(k)
        if name in seen:
            seen[name] += 1
            name = f"{name}_{seen[name]}"
        else:
            seen[name] = 0
        out.append(name)
    return out


def _decode(x: Any) -> Any:
    if x is None:
        return np.zeros((0, 0))
    if isinstance(x, bool):
        return x
    if isinstance(x, (int, float)):
        return float(x)
    if isinstance(x, str):
        return char_array(x) if x else np.zeros((0, 0), dtype=CHAR_DTYPE)
    if isinstance(x, dict):
        names = _unique_names(list(x))
        return StructArray.scalar({n: _decode(v) for n, v in zip(names, x.values())})
    return _decode_array(x)


def _numeric_shape(x: Any) -> tuple[int, ...] | None:
    """Shape of a rectangular nest of numbers/nulls (or of booleans), else None."""
    if not isinstance(x, list):
        return ()
    if not x:
        return None
    shapes = {_numeric_shape(e) for e in x}
    if len(shapes) != 1 or None in shapes:
        return None
    return (len(x),) + shapes.pop()


def _decode_array(items: list) -> Any:
    if not items:
        return np.zeros((0, 0))
    flat = list(_leaves(items))
    if all(isinstance(e, bool) for e in flat) or all(
            (isinstance(e, (int, float)) and not isinstance(e, bool)) or e is None for e in flat):
        shape = _numeric_shape(items)
        if shape is not None and not all(e is None for e in flat):
            is_logical = all(isinstance(e, bool) for e in flat)
            arr = np.array([np.nan if e is None else e for e in flat],
                           dtype=np.bool_ if is_logical else np.float64).reshape(shape)
            if arr.ndim == 1:
                return canonical(arr.reshape(-1, 1))
            return canonical(arr)
    if all(isinstance(e, dict) for e in items):
        keys = [list(e) for e in items]
        if all(k == keys[0] for k in keys):
            names = _unique_names(keys[0])
            data = np.empty((len(items), 1), dtype=object)
            for i, e in enumerate(items):
                data[i, 0] = {n: _decode(v) for n, v in zip(names, e.values())}
            return StructArray(names, data)
    return CellArray.from_list([_decode(e) for e in items], (len(items), 1))


def _leaves(x: Any):
    if isinstance(x, list):
        for e in x:
            yield from _leaves(e)
    else:
        yield x


@builtin("jsondecode", category="files", nargin=(1, None))
def jsondecode(text: Any, *args: Any) -> Any:
    """Decode JSON text into MATLAB values (see the module docstring)."""
    if not is_text(text):
        raise MatlabError("MATLAB:json:ExpectedText", "JSON input must be a character vector or string scalar.")
    source = to_str(text)
    try:
        tree = json.loads(source, parse_constant=lambda c: float(c))
    except json.JSONDecodeError as err:
        raise MatlabError("MATLAB:json:ExpectedValue",
                          f"JSON syntax error at line {err.lineno}, column {err.colno} "
                          f"(character {err.pos + 1}): {err.msg.lower()}.") from None
    except RecursionError:
        raise MatlabError("MATLAB:json:NestingTooDeep", "JSON input is nested too deeply.") from None
    return _decode(tree)
