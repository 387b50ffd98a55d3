"""Structure tests of matrices: istril istriu isdiag isbanded issymmetric
ishermitian.

Each returns a logical scalar. Arrays of more than two dimensions are never
triangular/diagonal/symmetric; numeric, logical and char inputs are accepted
as MATLAB does. ``issymmetric``/``ishermitian`` take ``'skew'`` and a
tolerance (norm of the difference relative to the norm of the matrix).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import int_value, is_text, scalar_value
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import CHAR_DTYPE, DeviceValue, char_codes, class_of, to_array, to_str


def _matrix(v: Any, fn: str) -> np.ndarray | None:
    """A 2-D array, or None for inputs with more than two dimensions."""
    if isinstance(v, DeviceValue):
        v = v.gather()
    if type(v) not in (float, bool, complex, np.ndarray):
        raise MatlabError(f"MATLAB:{fn}:InvalidInput",
                          f"Undefined function '{fn}' for input arguments of type '{class_of(v)}'.")
    arr = to_array(v)
    if arr.dtype == CHAR_DTYPE:
        arr = char_codes(arr)
    return arr if arr.ndim == 2 else None


def _banded(a: np.ndarray | None, lower: int, upper: int) -> bool:
    """Whether all nonzeros lie within ``lower`` below and ``upper`` above the diagonal."""
    if a is None:
        return False
    if a.size == 0:
        return True
    i, j = np.nonzero(a)
    return bool(np.all(j - i <= upper) and np.all(i - j <= lower))


@builtin("istril", category="matrix predicates", nargin=(1, 1))
def istril(a: Any) -> bool:
    """True when a matrix is lower triangular (all nonzeros on or below the diagonal)."""
    m = _matrix(a, "istril")
    return _banded(m, m.shape[0] if m is not None else 0, 0)


@builtin("istriu", category="matrix predicates", nargin=(1, 1))
def istriu(a: Any) -> bool:
    """True when a matrix is upper triangular (all nonzeros on or above the diagonal)."""
    m = _matrix(a, "istriu")
    return _banded(m, 0, m.shape[1] if m is not None else 0)


@builtin("isdiag", category="matrix predicates", nargin=(1, 1))
def isdiag(a: Any) -> bool:
    """True when all nonzeros of a matrix are on its main diagonal."""
    return _banded(_matrix(a, "isdiag"), 0, 0)


@builtin("isbanded", category="matrix predicates", nargin=(3, 3))
def isbanded(a: Any, lower: Any, upper: Any) -> bool:
    """True when a matrix has lower bandwidth <= lower and upper bandwidth <= upper."""
    lo, up = int_value(lower, "isbanded"), int_value(upper, "isbanded")
    if lo < 0 or up < 0:
        raise MatlabError("MATLAB:isbanded:InvalidBandwidth",
                          "Bandwidths must be nonnegative integer scalars.")
    return _banded(_matrix(a, "isbanded"), lo, up)


def _symmetry(a: Any, args: tuple, fn: str, conjugate: bool) -> bool:
    m = _matrix(a, fn)
    skew, tol = False, 0.0
    for arg in args:
        if is_text(arg):
            flag = to_str(arg).lower()
            if flag not in ("skew", "nonskew"):
                raise MatlabError(f"MATLAB:{fn}:InvalidOption",
                                  "Option must be 'skew' or 'nonskew'.")
            skew = flag == "skew"
        else:
            tol = scalar_value(arg, fn)
            if tol < 0:
                raise MatlabError(f"MATLAB:{fn}:InvalidTol", "Tolerance must be a nonnegative scalar.")
    if m is None or m.shape[0] != m.shape[1]:
        return False
    work = m.astype(np.complex128 if m.dtype.kind == "c" else np.float64)
    t = work.conj().T if conjugate else work.T
    target = -t if skew else t
    if tol == 0:
        with np.errstate(invalid="ignore"):
            return bool(np.all(work == target))
    if not np.all(np.isfinite(work)):
        return False
    norm_a = np.linalg.norm(work, 1) if work.size else 0.0
    return bool(np.linalg.norm(work - target, 1) <= tol * norm_a) if work.size else True


@builtin("issymmetric", category="matrix predicates", nargin=(1, 3))
def issymmetric(a: Any, *args: Any) -> bool:
    """True when A equals A.' (or -A.' with 'skew'); a tolerance compares
    norm(A - A.', 1) <= tol*norm(A, 1)."""
    return _symmetry(a, args, "issymmetric", conjugate=False)


@builtin("ishermitian", category="matrix predicates", nargin=(1, 3))
def ishermitian(a: Any, *args: Any) -> bool:
    """True when A equals A' (or -A' with 'skew'); a tolerance as in issymmetric."""
    return _symmetry(a, args, "ishermitian", conjugate=True)
