"""Prime factors and rational approximations: factor rat.

``factor(n)`` lists the prime factors of a nonnegative integer in ascending
order (in n's class); ``[p, k] = factor(n)`` gives the distinct primes and
their multiplicities. ``rat`` expands numbers as continued fractions until
``abs(X - N./D) < tol`` (default ``1e-6*norm(X(:), 1)``), MATLAB's algorithm.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._math_support import numeric_array
from matfuse.runtime.builtins._text_args import make_char
from matfuse.runtime.builtins._common import scalar_value
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import CHAR_DTYPE, canonical, char_rows


def _prime_factors(n: int) -> list[int]:
    factors = []
    p = 2
    while p * p <= n:
        while n % p == 0:
            factors.append(p)
            n //= p
        p += 1 if p == 2 else 2
    if n > 1:
        factors.append(n)
    return factors


@builtin("factor", category="number theory", nargin=(1, 1), nargout=(0, 2), wants_nargout=True)
def factor(n: Any, nargout: int = 1) -> Any:
    """Prime factorization: factor(n) ascending primes; [p, k] = factor(n)."""
    arr = numeric_array(n, "factor")
    if arr.size != 1:
        raise MatlabError("MATLAB:factor:InputNotScalar", "Input must be a scalar.")
    value = arr.reshape(-1)[0]
    if arr.dtype.kind == "c" or value < 0 or value != np.floor(value) or not np.isfinite(value):
        raise MatlabError("MATLAB:factor:InputNotPosInt", "Input must be a real nonnegative integer.")
    if arr.dtype.kind == "f" and value > 2.0 ** 32:
        raise MatlabError("MATLAB:factor:InputTooLarge",
                          "The maximum value of n allowed is 2^32 for double input.")
    number = int(value)
    primes = [number] if number < 2 else _prime_factors(number)
    dtype = arr.dtype
    out = np.array(primes, dtype=dtype).reshape(1, -1)
    if nargout < 2:
        return canonical(out)
    unique, counts = np.unique(out, return_counts=True)
    return canonical(unique.reshape(1, -1).astype(dtype)), canonical(counts.reshape(1, -1).astype(np.float64))


def _round_half_away(x: float) -> float:
    """MATLAB's ``round``: halves go away from zero (Python's go to even)."""
    return float(np.sign(x) * np.floor(abs(x) + 0.5))


def _expand(x: float, tol: float) -> tuple[float, float, list[int]]:
    """Continued-fraction expansion of x: (numerator, denominator, terms)."""
    if np.isinf(x):
        return float(np.sign(x)), 0.0, [int(np.sign(x))]
    if np.isnan(x):
        return 0.0, 0.0, []
    y = x
    n, d = _round_half_away(y), 1.0
    lastn, lastd = 1.0, 0.0
    frac = y - n
    terms = [int(n)]
    while abs(x - n / d) >= tol and frac != 0:
        flip = 1.0 / frac
        step = _round_half_away(flip)
        frac = flip - step
        n, lastn = n * step + lastn, n
        d, lastd = d * step + lastd, d
        terms.append(int(step))
    return n * np.sign(d), abs(d), terms


def continued_fraction_text(x: float, terms: list[int]) -> str:
    """'3 + 1/(7 + 1/16)': the last term is parenthesised only when negative."""
    if np.isinf(x):
        return "Inf" if x > 0 else "-Inf"
    if not terms:
        return "NaN"
    text = str(terms[0])
    closing = ""
    for k, t in enumerate(terms[1:], start=1):
        last = k == len(terms) - 1
        if last and t >= 0:
            text += f" + 1/{t}"
        else:
            text += f" + 1/({t}"
            closing += ")"
    return text + closing


@builtin("rat", category="number theory", nargin=(1, 2), nargout=(0, 2), wants_nargout=True)
def rat(x: Any, tol: Any = None, nargout: int = 1) -> Any:
    """Rational approximation: [N, D] = rat(X, tol) with abs(X - N./D) < tol;
    S = rat(X) is the continued fraction as text, one row per element."""
    arr = numeric_array(x, "rat")
    if arr.dtype.kind == "c":
        raise MatlabError("MATLAB:rat:complexInput", "Input must be real.")
    values = arr.astype(np.float64)
    finite = values[np.isfinite(values)]
    limit = scalar_value(tol, "rat") if tol is not None else 1e-6 * float(np.sum(np.abs(finite)))
    results = [_expand(v, limit) for v in values.reshape(-1, order="F")]
    if nargout >= 2:
        num = np.array([r[0] for r in results]).reshape(values.shape, order="F")
        den = np.array([r[1] for r in results]).reshape(values.shape, order="F")
        return canonical(num), canonical(den)
    rows = [continued_fraction_text(v, r[2]) for v, r in zip(values.reshape(-1, order="F").tolist(), results)]
    return text_rows(rows)


def text_rows(rows: list[str]) -> Any:
    """rat's text result: one row per element (a char row for one, an empty
    char array for none)."""
    if not rows:
        return np.zeros((0, 0), dtype=CHAR_DTYPE)
    return make_char(rows[0]) if len(rows) == 1 else char_rows(rows).astype(CHAR_DTYPE)
