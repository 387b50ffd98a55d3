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
# Above 2**53 not every integer is a double: such values print with %g.
FLINTMAX = 2.0 ** 53


def _numeric_input(x: Any, fn: str) -> np.ndarray:
    if isinstance(x, DeviceValue):
        x = x.gather()
    if type(x) in (float, bool, complex) or type(x) is np.ndarray:
        return to_array(x)
    raise MatlabError(f"MATLAB:{fn}:NonNumericInput" if fn != "num2str" else "MATLAB:num2str:nonNumericInput",
                      "Input must be numeric, logical, or char." if fn != "num2str"
                      else "Input to num2str must be numeric.")


def _rows_with_format(arr: np.ndarray, fmt: str) -> list[str]:
    """``sprintf(fmt, row)`` for each row (the format recycles over the row)."""
    return [format_printf(fmt, [arr[r:r + 1, :]]) for r in range(arr.shape[0])]


def _result_rows(rows: list[str]) -> np.ndarray:
    if len(rows) == 1:
        return char_array(rows[0]) if rows[0] else np.zeros((1, 0), dtype=CHAR_DTYPE)
    return char_rows(rows)


def _trimmed_rows(rows: list[str]) -> np.ndarray:
    """The rows as a char matrix without its blank leading and trailing columns
    (num2str removes leading spaces, even when a format gives a field width)."""
    rows = [r.rstrip(" \t\n\r\v\f") for r in rows]
    lead = min((len(r) - len(r.lstrip(" ")) for r in rows if r.strip()), default=0)
    return _result_rows([r[lead:] for r in rows])


def _all_whole(values: np.ndarray) -> bool:
    finite = values[np.isfinite(values)]
    return bool(np.all(finite == np.floor(finite)))


def _largest_finite(values: np.ndarray) -> tuple[float, int]:
    """(max finite magnitude, floor(log10) of it; 0 when none or all zero)."""
    finite = values[np.isfinite(values)]
    top = float(np.max(np.abs(finite))) if finite.size else 0.0
    return top, (math.floor(math.log10(top)) if top > 0 else 0)


def _integer_format(arr: np.ndarray) -> str:
    """A field of the widest number's digit count plus 2; Inf and NaN count
    as 3 digits."""
    values = arr.reshape(-1).astype(np.float64)
    width = _largest_finite(values)[1] + 3
    if not np.all(np.isfinite(values)):
        width = max(width, 5)
    return f"%{width}d" if arr.dtype.kind in "iu" else f"%{width}.0f"


def _default_real_format(arr: np.ndarray) -> str:
    """num2str's format for one element of a real array.

    Integer classes, and whole numbers below ``flintmax`` (where every
    integer is exact), print as integers (``_integer_format``). Otherwise
    ``%g`` with 4 more significant digits than the integer part of the
    largest finite value has (at least 5, at most 16), in a field 7 wider.
    """
    values = arr.reshape(-1).astype(np.float64)
    top, digits = _largest_finite(values)
    if arr.dtype.kind in "iu" or (top < FLINTMAX and _all_whole(values)):
        return _integer_format(arr)
    significant = min(max(digits + 5, 5), 16)
    return f"%{significant + 7}.{significant}g"


def _complex_rows(arr: np.ndarray, part_format: str) -> list[str]:
    """Each row as ``re+imi`` pairs: ``part_format`` for the real part, the
    same left-aligned with a sign for the imaginary part, the imaginary
    part's padding moved after its ``i``."""
    imag_format = "%-+" + part_format[1:]
    rows = []
    for r in range(arr.shape[0]):
        pairs = []
        for v in arr[r, :]:
            real_text = format_printf(part_format, [float(v.real)])
            imag_text = format_printf(imag_format, [float(v.imag)])
            if imag_text[:1] not in "+-":
                # NaN prints without a sign: add it, keeping the field width.
                imag_text = "+" + (imag_text[:-1] if imag_text.endswith(" ") else imag_text)
            padding = len(imag_text) - len(imag_text.rstrip(" "))
            pairs.append(f"{real_text}{imag_text.rstrip(' ')}i{' ' * padding}")
        rows.append("".join(pairs))
    return rows


def _default_complex_format(arr: np.ndarray) -> str:
    """num2str's format for each part of a complex array (as for real arrays,
    over the magnitudes of both parts)."""
    parts = np.concatenate([arr.real.reshape(-1), arr.imag.reshape(-1)])
    digits = _largest_finite(parts)[1]
    both_finite = np.isfinite(arr.real) & np.isfinite(arr.imag)
    finite_values = arr[both_finite]
    fractional = np.any((finite_values.real != np.floor(finite_values.real))
                        | (finite_values.imag != np.floor(finite_values.imag)))
    if digits > 15 or (finite_values.size and fractional):
        significant = min(max(digits + 5, 5), 16)
        return f"%{significant + 7}.{significant}g"
    return f"%{digits + 3}.0f"


def _precision_argument(spec: Any) -> int:
    try:
        return min(whole_number(spec, "num2str", "Precision", 1), MAX_PRECISION)
    except MatlabError:
        raise MatlabError("MATLAB:num2str:invalidSecondArgument",
                          "Second argument must be a positive integer or a format.") from None


@builtin("num2str", category="strings", nargin=(1, 2))
def num2str(x: Any, spec: Any = None) -> Any:
    """Convert numbers to a character array.

    Each row of the input (N-D input: its pages side by side) becomes one row
    of text; blank leading columns are removed. ``num2str(A, precision)``
    uses ``%g`` with that many significant digits; ``num2str(A, format)``
    applies the format to the elements of each row.
    """
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
    if arr.dtype.kind in "fc":
        arr = arr + 0.0  # -0 prints as 0
    if spec is not None and is_text(spec):
        fmt = to_str(spec)
        base = fmt.rstrip()
        if arr.dtype.kind == "c" and base.startswith("%") and base.count("%") == 1:
            return _trimmed_rows(_complex_rows(arr, base))
        return _trimmed_rows(_rows_with_format(arr, fmt))
    prec = None if spec is None else _precision_argument(spec)
    if prec is not None and arr.dtype.kind not in "iu":
        # (Integer classes ignore a precision: they print every digit.)
        fmt = f"%{prec + 7}.{prec}g"
        if arr.dtype.kind == "c":
            return _trimmed_rows(_complex_rows(arr, fmt))
        return _trimmed_rows(_rows_with_format(arr, fmt))
    if arr.dtype.kind == "c":
        return _trimmed_rows(_complex_rows(arr, _default_complex_format(arr)))
    return _trimmed_rows(_rows_with_format(arr, _default_real_format(arr)))


@builtin("int2str", category="strings", nargin=(1, 1))
def int2str(x: Any) -> Any:
    """Round to integers and convert to a character array.

    Every digit prints, however large the value (``int2str(1e20)``); the
    layout is num2str's for whole numbers. Complex input uses the real part.
    """
    if is_char(x):
        x = to_array(x).view(np.uint32).astype(np.float64)
    arr = _numeric_input(x, "int2str")
    if arr.size == 0:
        return np.zeros((0, 0), dtype=CHAR_DTYPE)
    if arr.ndim > 2:
        arr = arr.reshape(arr.shape[0], -1, order="F")
    if arr.dtype.kind == "c":
        arr = arr.real
    if arr.dtype == np.bool_:
        arr = arr.astype(np.float64)
    if arr.dtype.kind == "f":
        # Round half away from zero; + 0.0 turns -0 into 0.
        arr = np.where(np.isfinite(arr), np.sign(arr) * np.floor(np.abs(arr) + 0.5), arr) + 0.0
    return _trimmed_rows(_rows_with_format(arr, _integer_format(arr)))


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


_MAGNITUDE = r"(?:(?:\d[\d,]*\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?|inf|nan)"
# One term of a number: real (2.5), or imaginary written 2i, 2*i, i*2 or i.
_TERM_RE = re.compile(
    rf"^(?:(?P<re>{_MAGNITUDE})|(?P<im1>{_MAGNITUDE})\s*\*?\s*[ij]|[ij]\s*\*\s*(?P<im2>{_MAGNITUDE})"
    rf"|(?P<unit>[ij]))$", re.IGNORECASE)
_EXPONENT_SIGN_RE = re.compile(r"(?:\d|\.)[eEdD]\s*$")


def _terms(text: str) -> list[str] | None:
    """``text`` split before each sign that is not an exponent's (at most two terms)."""
    pieces, start = [], 0
    for k in range(1, len(text)):
        if text[k] in "+-" and not _EXPONENT_SIGN_RE.search(text[:k]) and text[:k].strip() not in ("", "+", "-"):
            pieces.append(text[start:k])
            start = k
    pieces.append(text[start:])
    return pieces if len(pieces) <= 2 else None


def parse_double(text: str) -> float | complex:
    """MATLAB ``str2double`` of one text (NaN when it is not a number): a real
    number, an imaginary one (2i, 2*i, i*2, i, Inf*i) or their sum, with
    commas as thousands separators and d/D exponents."""
    terms = _terms(text.strip())
    if not terms or not terms[0]:
        return math.nan
    real = imag = None
    for term in terms:
        body = term.strip()
        negative = body.startswith("-")
        body = body[1:].strip() if body[:1] in "+-" else body
        m = _TERM_RE.match(body)
        if m is None:
            return math.nan
        value = 1.0 if m.group("unit") else _to_float(m.group("re") or m.group("im1") or m.group("im2"))
        value = -value if negative else value
        if m.group("re") is not None:
            if real is not None:
                return math.nan
            real = value
        else:
            if imag is not None:
                return math.nan
            imag = value
    if imag is None:
        return real
    return complex(real if real is not None else 0.0, imag)


def _to_float(text: str) -> float:
    return float(text.replace(",", "").replace("d", "e").replace("D", "e"))


# A plain ASCII decimal (12, -3.5, .5e-3) with optional blanks around it:
# what Python's float() reads the same way as ``parse_double``.
_PLAIN_DECIMAL_RE = re.compile(r"\s*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*")


@builtin("str2double", category="strings", nargin=(1, 1))
def str2double(x: Any) -> Any:
    """Convert text to double; NaN where the text is not a number."""
    if type(x) is np.ndarray and x.dtype == CHAR_DTYPE and x.ndim == 2 and x.shape[0] == 1:
        text = "".join(x[0].tolist())
        if _PLAIN_DECIMAL_RE.fullmatch(text):
            return float(text)
        return _complex_or_real(parse_double(text))
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
