"""Matrix functions: sqrtm logm (expm is in ``linalg``).

SciPy computes them (Schur-based methods, as MATLAB's); results are real
when the input is real and the function value is real. MATLAB's warnings:
``MATLAB:sqrtm:SingularMatrix`` when the Schur form has an exact zero on its
diagonal (not with a second output, which is the residual), and
``MATLAB:logm:nonPosRealEig`` when an eigenvalue is zero or real negative
(the principal logarithm is undefined; a non-principal one is returned).
The device paths are in ``accelerate/router/matrix_roots``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._matrixops import emit_warning
from matfuse.runtime.builtins.linalg import finish, float_matrix, require_square
from matfuse.runtime.registry import GpuSpec, builtin

@builtin("sqrtm", category="linear_algebra", nargin=(1, 1), nargout=(0, 2), wants_nargout=True,
         gpu=GpuSpec(kind="matmul"))
def sqrtm(x: Any, nargout: int = 1) -> Any:
    """Principal matrix square root X*X = A (complex Schur method, as
    MATLAB's sqrtm); complex when A has negative real eigenvalues.
    [X, residual] = sqrtm(A) also returns norm(A - X^2, 1) / norm(A, 1)
    and prints no warning."""
    a, single = float_matrix(x, "sqrtm")
    require_square(a, "sqrtm")
    if a.size == 0:
        return (finish(a, single), 0.0) if nargout > 1 else finish(a, single)
    _require_finite(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        root, singular, negative = _schur_sqrtm(a)
    if singular and nargout < 2:
        emit_warning("MATLAB:sqrtm:SingularMatrix",
                     "Matrix is singular and may not have a square root.")
    if a.dtype.kind != "c" and not negative:
        root = root.real
    result = finish(root, single)
    if nargout < 2:
        return result
    out = np.asarray(result)
    with np.errstate(all="ignore"):
        residual = np.linalg.norm(a - out.astype(a.dtype) @ out.astype(a.dtype), 1) \
            / np.linalg.norm(a, 1)
    return result, finish(np.array([[residual]]), single)


def _require_finite(a: np.ndarray) -> None:
    """Both functions start from a Schur decomposition, which MATLAB refuses
    for non-finite input."""
    if not np.all(np.isfinite(a)):
        raise MatlabError("MATLAB:schur:matrixWithNaNInf", "Input to SCHUR must not contain NaN or Inf.")


def _real_input_schur(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool, bool]:
    """The complex Schur form of a real matrix, and whether its real Schur
    form has an exact zero and a negative eigenvalue (1x1 blocks; the root
    is complex exactly when there is a negative one). With a negative real
    eigenvalue and no exact zero it is MATLAB's real Schur form made complex
    by rsf2csf (real eigenvalues stay exactly real: the +i*sqrt(|lambda|)
    branch); otherwise the complex Schur form of the matrix as complex data
    with negative eigenvalues near the real axis put on it
    (``_onto_the_cut``), whose rounding keeps semidefinite singular matrices
    such as ``ones(6)`` finite (the real form's exact zeros would divide
    rounding errors by zero)."""
    import scipy.linalg

    t, q = scipy.linalg.schur(a, output="real")
    subdiagonal = np.diag(t, -1)
    single = (np.concatenate([subdiagonal, [0.0]]) == 0) & \
        (np.concatenate([[0.0], subdiagonal]) == 0)
    diagonal = np.diag(t)
    exact_zero = bool(np.any(single & (diagonal == 0)))
    negative = bool(np.any(single & (diagonal < 0)))
    if negative and not exact_zero:
        return (*scipy.linalg.rsf2csf(t, q), exact_zero, negative)
    t, q = scipy.linalg.schur(a.astype(np.complex128), output="complex")
    t[np.diag_indices_from(t)] = _onto_the_cut(np.diag(t), a)
    return t, q, exact_zero, negative


#: an eigenvalue of a matrix with a negative real part within
#: CUT_TOLERANCE * n * u * norm(A, 'fro') of the real axis is taken as on it
CUT_TOLERANCE = 8.0


def _onto_the_cut(diagonal: np.ndarray, a: np.ndarray) -> np.ndarray:
    """The Schur form's diagonal with each negative eigenvalue that rounding
    left just off the real axis put on it, so that its root is
    +i*sqrt(|lambda|) whatever the sign of that rounding."""
    tolerance = CUT_TOLERANCE * a.shape[0] * np.finfo(np.float64).eps / 2 * np.linalg.norm(a)
    on_cut = (diagonal.real < 0) & (np.abs(diagonal.imag) <= tolerance)
    return np.where(on_cut, diagonal.real + 0j, diagonal)


def _schur_sqrtm(a: np.ndarray) -> tuple[np.ndarray, bool, bool]:
    """A = Q*T*Q' (complex Schur; see ``_real_input_schur``); R upper
    triangular with R*R = T, column by column; X = Q*R*Q'. Also whether the
    Schur form has an exact zero on its diagonal (singular), and whether a
    real A has a negative real eigenvalue (its root is then complex;
    otherwise real)."""
    import scipy.linalg

    if a.dtype.kind == "c":
        t, q = scipy.linalg.schur(a, output="complex")
        real_form_zero, negative = False, True
        t[np.diag_indices_from(t)] = _onto_the_cut(np.diag(t), a)
    else:
        t, q, real_form_zero, negative = _real_input_schur(a)
    n = t.shape[0]
    r = np.zeros_like(t)
    for j in range(n):
        r[j, j] = np.sqrt(t[j, j])
        for i in range(j - 1, -1, -1):
            s = t[i, j] - r[i, i + 1:j] @ r[i + 1:j, j]
            den = r[i, i] + r[j, j]
            r[i, j] = s / den if den != 0 else (0.0 if s == 0 else np.inf)
    singular = real_form_zero or bool(np.any(np.diag(t) == 0))
    return q @ r @ q.conj().T, singular, negative


def _complex_logm(a: np.ndarray) -> np.ndarray:
    """logm of a complex matrix through its complex Schur form, with a
    negative eigenvalue that rounding left just off the real axis put on it
    (``_onto_the_cut``: the branch log|lambda| + i*pi, as sqrtm's)."""
    import scipy.linalg

    t, q = scipy.linalg.schur(a, output="complex")
    t[np.diag_indices_from(t)] = _onto_the_cut(np.diag(t), a)
    return q @ np.asarray(scipy.linalg.logm(t)) @ q.conj().T


@builtin("logm", category="linear_algebra", nargin=(1, 1), nargout=(0, 2), wants_nargout=True,
         gpu=GpuSpec(kind="matmul"))
def logm(x: Any, nargout: int = 1) -> Any:
    """Principal matrix logarithm, the inverse of expm; complex when A has
    negative real eigenvalues; Hermitian for Hermitian A. [L, exitflag] = logm(A): exitflag 0 (the
    algorithm completed)."""
    import scipy.linalg
    a, single = float_matrix(x, "logm")
    require_square(a, "logm")
    if a.size == 0:
        return (finish(a, single), 0.0) if nargout > 1 else finish(a, single)
    _require_finite(a)
    eigs = np.linalg.eigvals(a)
    if a.dtype.kind == "c":
        eigs = _onto_the_cut(eigs, a)
    if np.any((eigs.imag == 0) & (eigs.real <= 0)):
        emit_warning("MATLAB:logm:nonPosRealEig",
                     "Principal matrix logarithm is not defined for A with nonpositive real "
                     "eigenvalues. A non-principal matrix logarithm is returned.")
    hermitian = bool(np.array_equal(a, a.conj().T))
    if hermitian and np.all(eigs.real > 0):
        # A = V*diag(d)*V': log(A) = V*diag(log(d))*V', Hermitian as MATLAB
        # documents (the Schur-based path is so only to rounding)
        d, v = np.linalg.eigh(a)
        out = (v * np.log(d)) @ v.conj().T
        out = (out + out.conj().T) / 2
        if a.dtype.kind != "c":
            out = out.real
        result = finish(out, single)
        return (result, 0.0) if nargout > 1 else result
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = np.asarray(scipy.linalg.logm(a)) if a.dtype.kind != "c" else _complex_logm(a)
    if out.dtype.kind == "c" and a.dtype.kind != "c" and np.all(np.abs(out.imag) <= 1e-14 * max(1.0, np.abs(out).max())):
        out = out.real
    result = finish(out, single)
    return (result, 0.0) if nargout > 1 else result
