"""Numbers as digits of any base: dec2base base2dec.

``dec2base(d, base)`` writes nonnegative integers with the digits
``0-9A-Z`` (or the characters of a symbol string given as the base), one row
per element, padded with the zero digit to a common width (or to at least
``n`` digits). ``base2dec`` reads them back; spaces in a row are ignored.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._math_support import numeric_array
from matfuse.runtime.builtins._text_args import text_arg, whole_number
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import CHAR_DTYPE, CellArray, char_rows, is_char, to_str

_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _symbols(base: Any, fn: str) -> str:
    if is_char(base):
        symbols = to_str(base)
        if len(set(symbols)) != len(symbols) or len(symbols) < 2:
            raise MatlabError(f"MATLAB:{fn}:symbolsNotUnique",
                              "Symbols representing digits must be unique.")
        if any(c.isspace() for c in symbols):
            raise MatlabError(f"MATLAB:{fn}:whitespaceSymbol",
                              "Whitespace characters cannot be used as symbols.")
        return symbols
    b = whole_number(base, fn, "Base")
    if not 2 <= b <= 36:
        raise MatlabError(f"MATLAB:{fn}:InvalidBase", "Base must be an integer between 2 and 36.")
    return _DIGITS[:b]


@builtin("dec2base", category="strings", nargin=(2, 3))
def dec2base(d: Any, base: Any, n: Any = None) -> Any:
    """Nonnegative integers as base-B text, one row per element (column-major)."""
    if isinstance(d, CellArray):
        values = np.array([float(numeric_array(v, "dec2base").reshape(-1)[0]) for v in
                           d.data.reshape(-1, order="F")])
    else:
        values = numeric_array(d, "dec2base").reshape(-1, order="F")
    if values.dtype.kind == "c" or np.any(values < 0) or np.any(values != np.floor(values)):
        raise MatlabError("MATLAB:dec2base:FirstArg",
                          "First argument must be an array of nonnegative integers.")
    symbols = _symbols(base, "dec2base")
    radix = len(symbols)
    width = 0 if n is None else whole_number(n, "dec2base", "Number of digits")
    rows = []
    for v in values.tolist():
        number = int(v)
        digits = []
        while number > 0:
            number, r = divmod(number, radix)
            digits.append(symbols[r])
        rows.append("".join(reversed(digits)) or symbols[0])
    if not rows:
        return np.zeros((0, max(width, 0)), dtype=CHAR_DTYPE)
    longest = max(width, max(len(r) for r in rows))
    return char_rows([symbols[0] * (longest - len(r)) + r for r in rows]).astype(CHAR_DTYPE)


@builtin("base2dec", category="strings", nargin=(2, 2))
def base2dec(s: Any, base: Any) -> Any:
    """Base-B text (char rows, cell array or string array) as doubles; a
    column vector with one value per row or element."""
    symbols = _symbols(base, "base2dec")
    if not is_char(base):
        symbols_lookup = {c: k for k, c in enumerate(symbols)}
        symbols_lookup.update({c.lower(): k for k, c in enumerate(symbols)})
    else:
        symbols_lookup = {c: k for k, c in enumerate(symbols)}
    arg = text_arg(s, "base2dec", "Input")
    radix = len(symbols)
    out = []
    for text in arg.items:
        value = 0.0
        valid = True
        for c in (text or ""):
            if c == " " and not is_char(base):
                continue
            if c not in symbols_lookup:
                valid = False
                break
            value = value * radix + symbols_lookup[c]
        out.append(value if valid else np.nan)
    result = np.array(out, dtype=np.float64).reshape(-1, 1)
    return result if result.size != 1 else float(result.reshape(-1)[0])
