"""Number formatting for the command-window display (``format short/long``).

``numeric_layout`` decides, for a whole numeric/logical array, how MATLAB
prints its elements: integer columns, fixed-point with 4 (short) or 15 (long)
decimals, a common scale factor (``1.0e+03 *``) for matrices whose magnitude
leaves the fixed range, or e-notation for scalars out of range.  It returns
the element texts and one column width so display.py can lay out rows,
``Columns N through M`` chunks and N-D pages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

# Integer-valued doubles print as integers below this magnitude.
_INT_LIMIT = 1e9


@dataclass(slots=True)
class NumericLayout:
    """Element texts (same shape as the array), column width, scale header."""

    texts: np.ndarray
    width: int
    scale_header: str | None = None


def _decimals(fmt: str, single: bool) -> int:
    if fmt == "long":
        return 7 if single else 15
    return 4


def _base_width(fmt: str, single: bool) -> int:
    if fmt == "long":
        return 12 if single else 20
    return 10


def _fixed_upper(fmt: str) -> float:
    # format long keeps 15 decimals only while the integer part is short.
    return 100.0 if fmt == "long" else 1000.0


def _nonfinite_text(x: float) -> str:
    if math.isnan(x):
        return "NaN"
    return "Inf" if x > 0 else "-Inf"


def _fixed(x: float, decimals: int) -> str:
    if not math.isfinite(x):
        return _nonfinite_text(x)
    text = f"{x:.{decimals}f}"
    if x == 0:
        text = text.lstrip("-")
    return text


def _fixed_element(x: float, decimals: int) -> str:
    """An element of a non-integer real matrix: exact zeros print as ``0``
    (MATLAB right-aligns a bare ``0`` in the column), the rest fixed-point."""
    if x == 0:
        return "0"
    return _fixed(x, decimals)


def _exp(x: float, decimals: int) -> str:
    if not math.isfinite(x):
        return _nonfinite_text(x)
    return f"{x:.{decimals}e}"


def _texts_array(values: list[str], shape: tuple[int, ...]) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out.reshape(shape, order="F")


def integer_class_layout(arr: np.ndarray) -> NumericLayout:
    """intN/uintN/logical/char-code arrays: plain integers, 3-space gap."""
    flat = arr.reshape(-1, order="F")
    texts = [str(int(v)) for v in flat.tolist()]
    width = max((len(t) for t in texts), default=1) + 3
    return NumericLayout(_texts_array(texts, arr.shape), width)


def real_layout(arr: np.ndarray, fmt: str) -> NumericLayout:
    """Layout of a real float array (double or single)."""
    single = arr.dtype == np.float32
    flat = arr.reshape(-1, order="F").astype(np.float64)
    values = flat.tolist()
    finite = [abs(v) for v in values if math.isfinite(v)]
    max_abs = max(finite, default=0.0)
    all_int = all(v == math.floor(v) for v in values if math.isfinite(v))
    is_scalar = len(values) == 1
    decimals = _decimals(fmt, single)

    if all_int and max_abs < _INT_LIMIT:
        texts = [_nonfinite_text(v) if not math.isfinite(v) else str(int(v)) for v in values]
        digits = len(str(int(max_abs)))
        width = 6 if digits <= 3 else 12
        width = max(width, max(len(t) for t in texts) + 2)
        return NumericLayout(_texts_array(texts, arr.shape), width)

    base = _base_width(fmt, single)
    in_fixed_range = (max_abs == 0.0) or (0.001 < max_abs < _fixed_upper(fmt))
    if in_fixed_range:
        texts = [_fixed_element(v, decimals) for v in values]
        width = max(base, max(len(t) for t in texts) + 2)
        return NumericLayout(_texts_array(texts, arr.shape), width)
    if is_scalar:
        text = _exp(values[0], decimals)
        return NumericLayout(_texts_array([text], arr.shape), len(text) + 3)
    exponent = math.floor(math.log10(max_abs))
    scale = 10.0 ** exponent
    texts = [_fixed_element(v / scale, decimals) for v in values]
    width = max(base, max(len(t) for t in texts) + 2)
    header = f"   1.0e{exponent:+03d} *"
    return NumericLayout(_texts_array(texts, arr.shape), width, header)


def complex_layout(arr: np.ndarray, fmt: str) -> NumericLayout:
    """Layout of a complex array: ``re + imi`` with aligned parts."""
    single = arr.dtype == np.complex64
    flat = arr.reshape(-1, order="F").astype(np.complex128)
    re = flat.real.tolist()
    im = flat.imag.tolist()
    finite = [abs(v) for v in re + im if math.isfinite(v)]
    max_abs = max(finite, default=0.0)
    decimals = _decimals(fmt, single)
    header = None
    in_fixed_range = (max_abs == 0.0) or (0.001 < max_abs < _fixed_upper(fmt))
    if in_fixed_range:
        part = lambda v: _fixed(v, decimals)  # noqa: E731
    elif len(re) == 1:
        part = lambda v: _exp(v, decimals)  # noqa: E731
    else:
        exponent = math.floor(math.log10(max_abs))
        scale = 10.0 ** exponent
        header = f"   1.0e{exponent:+03d} *"
        part = lambda v: _fixed(v / scale, decimals)  # noqa: E731
    re_texts = [part(v) for v in re]
    im_texts = [part(abs(v)) if not math.isnan(v) else "NaN" for v in im]
    wr = max(len(t) for t in re_texts)
    wi = max(len(t) for t in im_texts)
    texts = []
    for r, i, iv in zip(re_texts, im_texts, im):
        sign = "-" if (iv < 0 or (iv == 0 and math.copysign(1, iv) < 0)) else "+"
        texts.append(f"{r.rjust(wr)} {sign} {i.rjust(wi)}i")
    width = max(len(t) for t in texts) + 3
    return NumericLayout(_texts_array(texts, arr.shape), width, header)


def numeric_layout(arr: np.ndarray, fmt: str) -> NumericLayout:
    """Choose the layout for any numeric/logical array by its dtype."""
    kind = arr.dtype.kind
    if kind in "iub":
        return integer_class_layout(arr)
    if kind == "c":
        return complex_layout(arr, fmt)
    return real_layout(arr, fmt)


def scalar_text(value: np.ndarray | float, fmt: str = "short") -> str:
    """One element as MATLAB prints it inside a struct/cell (no padding)."""
    arr = np.asarray(value).reshape(1, 1)
    return str(numeric_layout(arr, fmt).texts[0, 0]).strip()


def inline_row_text(arr: np.ndarray, fmt: str = "short") -> str:
    """A short row vector as ``1 2 3`` (cells/struct fields show ``[1 2 3]``)."""
    layout = numeric_layout(arr, fmt)
    texts = [str(t) for t in layout.texts.reshape(-1, order="F")]
    if layout.scale_header is not None:
        # Scaled rows are shown element by element in e-notation instead.
        flat = arr.reshape(-1, order="F")
        texts = [scalar_text(v, fmt) for v in flat]
    return " ".join(texts)
