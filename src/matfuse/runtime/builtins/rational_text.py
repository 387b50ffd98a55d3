"""``rats``: rational approximations as fixed-width text (``format rat``'s
layout).

Each element takes ``strlen`` characters (13 by default) after one space:
``N/D`` with the numerator right-aligned and the denominator left-aligned
in the halves around the slash, a whole number centred, and ``*`` (centred)
when the fraction does not fit. The tolerance is
``min(10^-((strlen-1)/2) * norm(X(isfinite(X)), 1), 0.1)``; complex values
get a second field for the imaginary part.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import scalar_value
from matfuse.runtime.builtins._math_support import numeric_array
from matfuse.runtime.builtins.rational_factor import _expand
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import CHAR_DTYPE, char_rows


def _whole(value: float) -> str:
    """``sprintf('%1.0f', value)``: rounded, with MATLAB's Inf/NaN spelling."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Inf" if value > 0 else "-Inf"
    text = f"{value:.0f}"
    return "0" if text == "-0" else text


def _centred(text: str, width: int) -> str:
    padding = width - len(text)
    return " " * (padding // 2) + text + " " * (padding - padding // 2)


def _fraction(num: float, den: float, width: int) -> str:
    """One real part: ``N/D`` split around the slash, or a centred whole number."""
    half = (width - 1) / 2
    if den != 1:
        text = _whole(num).rjust(math.floor(half)) + "/" + _whole(den).ljust(math.ceil(half))
    else:
        text = _centred(_whole(num), width)
    return _centred("*", width) if len(text) > width else text


def _imaginary(num: float, den: float, width: int) -> str:
    """The imaginary field: a sign, then ``N/Di`` or a centred ``Ni``."""
    half = (width - 1) / 2
    sign = "+" if num >= 0 or math.isnan(num) else "-"
    magnitude = abs(num)
    if den != 1:
        text = sign + _whole(magnitude).rjust(math.floor(half)) + "/" + \
            (_whole(den) + "i").ljust(math.ceil(half) + 1)
    else:
        text = sign + _centred(_whole(magnitude) + "i", width + 1)
    return sign + _centred("*i", width + 1) if len(text) > width + 2 else text


def _approximations(values: np.ndarray, width: int) -> list[tuple[float, float]]:
    finite = values[np.isfinite(values)]
    tol = min(10.0 ** (-(width - 1) / 2) * float(np.sum(np.abs(finite))), 0.1)
    return [_expand(float(v), tol)[:2] for v in values.reshape(-1, order="F")]


@builtin("rats", category="number theory", nargin=(1, 2))
def rats(x: Any, strlen: Any = None) -> Any:
    """``rats(X)``, ``rats(X, strlen)``: rational approximations of the
    elements of X as a char array, one row per row of X, each element in
    ``strlen`` characters (13 by default) preceded by a space."""
    arr = numeric_array(x, "rats")
    width = 13 if strlen is None else scalar_value(strlen, "rats")
    if not math.isfinite(width):
        raise MatlabError("MATLAB:nonaninf", "Input must not be NaN or Inf.")
    width = int(width)
    if arr.size == 0:
        return np.zeros((0, 0), dtype=CHAR_DTYPE)
    if arr.ndim > 2:
        arr = arr.reshape(arr.shape[0], -1, order="F")
    complex_input = arr.dtype.kind == "c"
    real = _approximations(arr.real.astype(np.float64), width)
    imag = _approximations(arr.imag.astype(np.float64), width) if complex_input else None
    return rats_text(real, imag, arr.shape, width)


def rats_text(real: list[tuple[float, float]], imag: list[tuple[float, float]] | None,
              shape: tuple[int, int], width: int) -> np.ndarray:
    """The char array of ``rats``: the (numerator, denominator) pairs of the
    elements of a ``shape`` matrix in column-major order (and of their
    imaginary parts), each in ``width`` characters after a space."""
    rows, cols = shape
    lines = []
    for i in range(rows):
        parts = []
        for j in range(cols):
            k = i + j * rows
            text = _fraction(*real[k], width)
            if imag is not None:
                text += _imaginary(*imag[k], width)
            parts.append(" " + text)
        lines.append("".join(parts))
    return char_rows(lines)
