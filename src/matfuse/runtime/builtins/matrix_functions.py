"""Matrix functions: sqrtm logm (expm is in ``linalg``).

SciPy computes them (Schur-based methods, as MATLAB's); results are real
when the input is real and the function value is real.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins.linalg import finish, float_matrix, require_square
from matfuse.runtime.registry import builtin

@builtin("sqrtm", category="linear_algebra", nargin=(1, 1))
def sqrtm(x: Any) -> Any:
    """Principal matrix square root X*X = A (complex Schur method, as
    MATLAB's sqrtm); complex when A has negative real eigenvalues."""
    a, single = float_matrix(x, "sqrtm")
    require_square(a, "sqrtm")
    if a.size == 0:
        return finish(a, single)
    _require_finite(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        root = _schur_sqrtm(a)
    if a.dtype.kind != "c" and not np.any(root.imag):
        root = root.real
    elif a.dtype.kind != "c":
        eigs = np.linalg.eigvals(a)
        if np.all(np.isreal(eigs)) and np.all(eigs.real >= 0):
            root = root.real
    return finish(root, single)


def _require_finite(a: np.ndarray) -> None:
    """Both functions start from a Schur decomposition, which MATLAB refuses
    for non-finite input."""
    if not np.all(np.isfinite(a)):
        raise MatlabError("MATLAB:schur:matrixWithNaNInf", "Input to SCHUR must not contain NaN or Inf.")


def _schur_sqrtm(a: np.ndarray) -> np.ndarray:
    """A = Q*T*Q' (complex Schur); R upper triangular with R*R = T, column
    by column; X = Q*R*Q'."""
    import scipy.linalg

    t, q = scipy.linalg.schur(a.astype(np.complex128), output="complex")
    n = t.shape[0]
    r = np.zeros_like(t)
    for j in range(n):
        r[j, j] = np.sqrt(t[j, j])
        for i in range(j - 1, -1, -1):
            s = t[i, j] - r[i, i + 1:j] @ r[i + 1:j, j]
            den = r[i, i] + r[j, j]
            r[i, j] = s / den if den != 0 else (0.0 if s == 0 else np.inf)
    return q @ r @ q.conj().T


@builtin("logm", category="linear_algebra", nargin=(1, 1))
def logm(x: Any) -> Any:
    """Principal matrix logarithm, the inverse of expm; complex when A has
    negative real eigenvalues."""
    import scipy.linalg
    a, single = float_matrix(x, "logm")
    require_square(a, "logm")
    if a.size == 0:
        return finish(a, single)
    _require_finite(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = np.asarray(scipy.linalg.logm(a))
    if out.dtype.kind == "c" and a.dtype.kind != "c" and np.all(np.abs(out.imag) <= 1e-14 * max(1.0, np.abs(out).max())):
        out = out.real
    return finish(out, single)
