"""Numbers to text and back: num2str, int2str, mat2str, str2num, str2double."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.builtins._text_args import whole_number
from matfuse.runtime.printf import format_printf
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    DeviceValue,
    StringArray,
    StructArray,
    canonical,
    char_array,
    char_rows,
    class_of,
    is_char,
    to_array,
    to_str,
)

# A double has at most 767 significant decimal digits, so any larger
# precision prints the same digits; capping keeps huge requests printable.
MAX_PRECISION = 800


def _numeric_input(x: Any, fn: str) -> np.ndarray:
    if isinstance(x, DeviceValue):
        x = x.gather()
    if type(x) in (float, bool, complex) or type(x) is np.ndarray:
        return to_array(x)
    raise MatlabError(f"MATLAB:{fn}:NonNumericInput" if fn != "num2str" else "MATLAB:num2str:nonNumericInput",
                      "Input must be numeric, logical, or char." if fn != "num2str"
                      else "Input to num2str must be numeric.")


def _trim_common_leading(rows: list[str]) -> list[str]:
    """Remove leading blank columns shared by all rows, and trailing blanks."""
    rows = [r.rstrip() for r in rows]
    lead = min((len(r) - len(r.lstrip(" ")) for r in rows if r.strip()), default=0)
    return [r[lead:] for r in rows]


def _rows_with_format(arr: np.ndarray, fmt: str) -> list[str]:
    rows = []
    for r in range(arr.shape[0]):
        rows.append(format_printf(fmt, [arr[r:r + 1, :]]))
    return rows


def _result_rows(rows: list[str]) -> np.ndarray:
    if len(rows) == 1:
        return char_array(rows[0]) if rows[0] else np.zeros((1, 0), dtype=CHAR_DTYPE)
    return char_rows(rows)


def _complex_num2str(arr: np.ndarray, prec: int | None) -> np.ndarray:
    rows = []
    for r in range(arr.shape[0]):
        parts = []
        for v in arr[r, :]:
            re_text = _real_text(float(v.real), prec)
            im = float(v.imag)
            sign = "-" if im < 0 or (im == 0 and math.copysign(1, im) < 0) else "+"
            parts.append(f"{re_text}{sign}{_real_text(abs(im), prec)}i")
        rows.append("  ".join(parts))
    return _result_rows(rows)


def _real_text(v: float, prec: int | None) -> str:
    if not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Inf" if v > 0 else "-Inf")
    if prec is None:
        if v == math.floor(v):
            return f"{int(v)}"
        digits = max(math.floor(math.log10(abs(v))) + 5, 5) if v else 5
        return f"{v:.{min(digits, 16)}g}"
    return f"{v:.{prec}g}"


@builtin("num2str", category="strings", nargin=(1, 2))
def num2str(x: Any, spec: Any = None) -> Any:
    """Convert numbers to a character array."""
    if is_char(x):
        return x
    if isinstance(x, (CellArray, StringArray, StructArray)):
        raise MatlabError("MATLAB:num2str:nonNumericInput", "Input to num2str must be numeric.")
    arr = _numeric_input(x, "num2str")
    if arr.size == 0:
        return np.zeros((0, 0), dtype=CHAR_DTYPE)
    if arr.ndim > 2:
        arr = arr.reshape(arr.shape[0], -1, order="F")
    if arr.dtype == np.bool_:
        arr = arr.astype(np.float64)
    if spec is not None and is_text(spec):
        fmt = to_str(spec)
        return _result_rows(_rows_with_format(arr, fmt * arr.shape[1] if "%" in fmt else fmt))
    prec = None
    if spec is not None:
        try:
            prec = min(whole_number(spec, "num2str", "Precision", 1), MAX_PRECISION)
        except MatlabError:
            raise MatlabError("MATLAB:num2str:invalidSecondArgument",
                              "Second argument must be a positive integer or a format.") from None
    if arr.dtype.kind == "c":
        return _complex_num2str(arr, prec)
    if arr.dtype.kind in "iu":
        width = max(len(str(int(v))) for v in arr.reshape(-1).tolist()) + 2
        rows = _rows_with_format(arr, f"%{width}d" * arr.shape[1])
        return _result_rows(_trim_common_leading(rows))
    flat = arr.astype(np.float64).reshape(-1)
    finite = flat[np.isfinite(flat)]
    neg = bool(np.any(flat < 0))
    if prec is not None:
        fmt = f"%{prec + 7 + neg}.{prec}g"
    elif finite.size == 0 or np.all(finite == np.floor(finite)):
        max_abs = float(np.max(np.abs(finite))) if finite.size else 0.0
        digits = len(str(int(max_abs))) if max_abs < 1e15 else math.floor(math.log10(max_abs)) + 1
        if finite.size != flat.size:
            digits = max(digits, 3)
        fmt = f"%{digits + 2 + neg}d"
    else:
        max_abs = float(np.max(np.abs(finite)))
        dgt = math.floor(math.log10(max_abs)) if max_abs > 0 else 0
        dgt = min(max(dgt + 5, 5), 16)
        fmt = f"%{dgt + 7 + neg}.{dgt}g"
    if arr.size == 1:
        return char_array(format_printf(fmt, [arr]).strip())
    rows = _rows_with_format(arr, fmt * arr.shape[1])
    return _result_rows(_trim_common_leading(rows))


@builtin("int2str", category="strings", nargin=(1, 1))
def int2str(x: Any) -> Any:
    """Round to integers and convert to a character array."""
    if is_char(x):
        x = to_array(x).view(np.uint32).astype(np.float64)
    arr = _numeric_input(x, "int2str")
    if arr.dtype.kind == "c":
        arr = arr.real
    if arr.dtype.kind == "f":
        arr = np.where(np.isfinite(arr), np.sign(arr) * np.floor(np.abs(arr) + 0.5), arr)
    return num2str(arr if arr.size != 1 or arr.dtype != np.float64 else float(arr.reshape(-1)[0]))


def _mat2str_element(v: Any, prec: int, is_logical: bool) -> str:
    if is_logical:
        return "true" if v else "false"
    if isinstance(v, (complex, np.complexfloating)):
        re_t = _mat2str_real(float(v.real), prec)
        im = float(v.imag)
        im_t = _mat2str_real(abs(im), prec)
        return f"{re_t}{'-' if im < 0 else '+'}{im_t}i"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    return _mat2str_real(float(v), prec)


def _mat2str_real(v: float, prec: int) -> str:
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Inf" if v > 0 else "-Inf"
    text = f"{v:.{prec}g}"
    return text


@builtin("mat2str", category="strings", nargin=(1, 3))
def mat2str(x: Any, *options: Any) -> Any:
    """Text that evaluates to the matrix (``[1 2;3 4]``)."""
    prec = None
    with_class = False
    for opt in options:
        if is_text(opt):
            if to_str(opt).lower() != "class":
                raise MatlabError("MATLAB:mat2str:InvalidOptionString", "Invalid option string.")
            with_class = True
        else:
            prec = min(whole_number(opt, "mat2str", "Precision", 1), MAX_PRECISION)
    if isinstance(x, DeviceValue):
        x = x.gather()
    if not (type(x) in (float, bool, complex) or type(x) is np.ndarray):
        raise MatlabError("MATLAB:mat2str:NumericInput", "Input matrix must be numeric, char, or logical.")
    arr = to_array(x)
    if arr.ndim > 2:
        raise MatlabError("MATLAB:mat2str:TwoDInput", "Input matrix must be 2-D.")
    if prec is None:
        prec = 7 if arr.dtype in (np.float32, np.complex64) else 15
    if arr.dtype == CHAR_DTYPE:
        rows = ["'" + "".join(arr[r, :].tolist()).replace("'", "''") + "'" for r in range(arr.shape[0])]
        if arr.size == 0:
            return char_array("''" if arr.shape == (0, 0) else f"zeros({arr.shape[0]},{arr.shape[1]})")
        text = rows[0] if len(rows) == 1 else "[" + ";".join(rows) + "]"
        return char_array(text)
    is_logical = arr.dtype == np.bool_
    if arr.size == 0:
        text = "[]" if arr.shape == (0, 0) else f"zeros({arr.shape[0]},{arr.shape[1]})"
    else:
        rows = [" ".join(_mat2str_element(v, prec, is_logical) for v in arr[r, :].tolist())
                for r in range(arr.shape[0])]
        text = rows[0] if arr.size == 1 else "[" + ";".join(rows) + "]"
    if with_class and not is_logical:
        text = f"{class_of(arr)}({text})"
    return char_array(text)


_NUMBER_RE = re.compile(
    r"^\s*(?P<re>[+-]?(?:(?:\d[\d,]*\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?|inf|nan))?"
    r"(?:\s*(?P<isign>[+-])\s*(?P<im>(?:\d[\d,]*\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?|inf|nan)?\s*\*?\s*[ij])?\s*$",
    re.IGNORECASE)


def parse_double(text: str) -> float | complex:
    """MATLAB ``str2double`` of one text (NaN when it is not a number)."""
    m = _NUMBER_RE.match(text)
    if not m or (m.group("re") is None and m.group("isign") is None):
        # A lone imaginary number such as '2i'.
        m2 = re.match(r"^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*\*?\s*[ij]\s*$", text)
        if m2:
            return complex(0.0, float(m2.group(1)))
        return math.nan
    real = _to_float(m.group("re")) if m.group("re") else 0.0
    if m.group("isign") is None:
        return real
    imag = _to_float(m.group("im")) if m.group("im") else 1.0
    if m.group("isign") == "-":
        imag = -imag
    return complex(real, imag)


def _to_float(text: str) -> float:
    return float(text.replace(",", "").replace("d", "e").replace("D", "e"))


@builtin("str2double", category="strings", nargin=(1, 1))
def str2double(x: Any) -> Any:
    """Convert text to double; NaN where the text is not a number."""
    if isinstance(x, CellArray) or (isinstance(x, StringArray) and x.data.size != 1):
        data = x.data
        out = np.empty(data.shape, dtype=np.complex128)
        for idx, v in np.ndenumerate(data):
            if isinstance(v, str):
                out[idx] = parse_double(v)
            elif is_char(v) and v.ndim == 2 and v.shape[0] <= 1:
                out[idx] = parse_double(to_str(v))
            else:
                out[idx] = math.nan
        return canonical(out.real.copy() if not np.any(out.imag) else out)
    if is_char(x):
        if x.ndim == 2 and x.shape[0] > 1:
            return math.nan
        return _complex_or_real(parse_double(to_str(x)))
    if isinstance(x, StringArray):
        s = x.data.reshape(-1)[0]
        return math.nan if s is None else _complex_or_real(parse_double(s))
    return math.nan


def _complex_or_real(v: float | complex) -> Any:
    if isinstance(v, complex):
        return canonical(np.array([[v]], dtype=np.complex128))
    return v


_CONSTANTS = {"pi": math.pi, "inf": math.inf, "nan": math.nan, "true": 1.0, "false": 0.0,
              "eps": float(np.finfo(float).eps), "i": 1j, "j": 1j}


@builtin("str2num", category="strings", nargin=(1, 2), nargout=(0, 2), needs_ctx=True,
         wants_nargout=True)
def str2num(ctx: Any, x: Any, *_: Any, nargout: int = 1) -> Any:
    """Convert text holding a numeric matrix (``'[1 2; 3 4]'``) to numbers.

    Plain numeric text is parsed directly; anything else is evaluated as
    ``[text]`` like MATLAB does (``str2num('2*3')``).
    """
    if not is_char(x) and not isinstance(x, StringArray):
        raise MatlabError("MATLAB:str2num:InvalidArgument",
                          "Input must be a character vector or string scalar.")
    text = to_str(x) if not (is_char(x) and x.shape[0] > 1) else ";".join(
        "".join(x[r, :].tolist()) for r in range(x.shape[0]))
    ok = True
    try:
        value = _parse_matrix(text)
    except ValueError:
        value, ok = _evaluate(ctx, text)
    if nargout >= 2:
        return value, ok
    return value


def _evaluate(ctx: Any, text: str) -> tuple[Any, bool]:
    """``eval(['[' text ']'])`` through the interpreter; ([], false) on error."""
    try:
        out = ctx.call("eval", [char_array("[" + text + "]")], 1)
    except MatlabError:
        return np.zeros((0, 0)), False
    if not out or not (type(out[0]) in (float, bool) or type(out[0]) is np.ndarray):
        return np.zeros((0, 0)), False
    return out[0], True


def _parse_matrix(text: str) -> Any:
    body = text.strip()
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1]
    rows = [r for r in re.split(r"[;\n]", body) if r.strip()]
    parsed: list[list[complex]] = []
    for row in rows:
        tokens = [t for t in re.split(r"[\s,]+", row.strip()) if t]
        parsed.append([_parse_token(t) for t in tokens])
    if not parsed:
        return np.zeros((0, 0))
    width = len(parsed[0])
    if any(len(r) != width for r in parsed):
        raise ValueError("ragged")
    arr = np.array(parsed, dtype=np.complex128)
    if not np.any(arr.imag):
        arr = arr.real.copy()
    return canonical(arr)


def _parse_token(token: str) -> complex:
    low = token.lower()
    sign = 1.0
    if low[:1] in "+-" and low[1:] in _CONSTANTS:
        sign = -1.0 if low[0] == "-" else 1.0
        low = low[1:]
    if low in _CONSTANTS:
        return sign * _CONSTANTS[low]
    value = parse_double(token)
    if isinstance(value, float) and math.isnan(value):
        raise ValueError(token)
    return value
