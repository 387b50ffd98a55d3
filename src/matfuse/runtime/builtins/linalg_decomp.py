"""Spectral decompositions and subspaces: eig, svd, null, orth."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text, scalar_value
from matfuse.runtime.builtins.linalg import (
    default_tolerance,
    finish,
    float_matrix,
    require_finite,
    require_square,
)
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import to_str


def _is_hermitian(a: np.ndarray) -> bool:
    return a.shape[0] == a.shape[1] and bool(np.all(a == a.conj().T))


def _real_if_possible(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "c" and np.all(x.imag == 0):
        return x.real
    return x


@builtin("eig", category="linear_algebra", nargin=(1, 3), nargout=(0, 3), wants_nargout=True)
def eig(x: Any, *args: Any, nargout: int = 1) -> Any:
    """Eigenvalues e = eig(A) and [V, D] = eig(A); eig(A, B) generalized.

    Hermitian inputs use the symmetric solver: real eigenvalues in ascending
    order, as MATLAB returns them.
    """
    import scipy.linalg
    a, single = float_matrix(x, "eig")
    require_square(a, "eig")
    rest = list(args)
    as_vector = nargout <= 1
    while rest and is_text(rest[-1]):
        word = to_str(rest.pop()).lower()
        if word == "vector":
            as_vector = True
        elif word == "matrix":
            as_vector = False
        elif word not in ("chol", "qz", "balance", "nobalance"):
            raise MatlabError("MATLAB:eig:unknownOption", f"Unknown option '{word}'.")
    b = float_matrix(rest[0], "eig")[0] if rest else None
    if b is not None and b.shape != a.shape:
        raise MatlabError("MATLAB:eig:sizeMismatch", "Input matrices must have the same size.")
    if b is not None and not np.all(np.isfinite(b)):
        raise MatlabError("MATLAB:eig:matrixWithNaNInf", "Input to EIG must not contain NaN or Inf.")
    if not np.all(np.isfinite(a)):
        raise MatlabError("MATLAB:eig:matrixWithNaNInf", "Input to EIG must not contain NaN or Inf.")
    if a.size == 0:
        vals, vecs = np.zeros((0,)), np.zeros((0, 0))
    elif b is None and _is_hermitian(a):
        vals, vecs = np.linalg.eigh(a)
    elif b is not None:
        vals, vecs = scipy.linalg.eig(a, b)
        vals, vecs = _real_if_possible(vals), _real_if_possible(vecs)
        norms = np.linalg.norm(vecs, axis=0)
        vecs = vecs / np.where(norms == 0, 1, norms)
    else:
        vals, vecs = np.linalg.eig(a)
        vals, vecs = _real_if_possible(vals), _real_if_possible(vecs)
    if nargout <= 1:
        return finish(vals.reshape(-1, 1), single)
    d = vals.reshape(-1, 1) if as_vector else np.diag(vals)
    if nargout == 2:
        return finish(vecs, single), finish(d, single)
    # Left eigenvectors W with W'*A = D*W'.
    w = np.linalg.inv(vecs).conj().T if vecs.size else vecs
    norms = np.linalg.norm(w, axis=0) if w.size else np.ones(0)
    w = w / np.where(norms == 0, 1, norms)
    return finish(vecs, single), finish(d, single), finish(_real_if_possible(w), single)


@builtin("svd", category="linear_algebra", nargin=(1, 2), nargout=(0, 3), wants_nargout=True)
def svd(x: Any, option: Any = None, nargout: int = 1) -> Any:
    """Singular values s = svd(A) and [U, S, V] = svd(A[, 'econ' | 0])."""
    a, single = float_matrix(x, "svd")
    if not np.all(np.isfinite(a)):
        raise MatlabError("MATLAB:svd:matrixWithNaNInf", "Input to SVD must not contain NaN or Inf.")
    econ = False
    if option is not None:
        if is_text(option) and to_str(option).lower() == "econ":
            econ = True
        elif not is_text(option) and scalar_value(option, "svd") == 0:
            econ = a.shape[0] > a.shape[1]
        else:
            raise MatlabError("MATLAB:svd:invalidOption", "Use svd(X,0) or svd(X,\"econ\").")
    m, n = a.shape
    if nargout <= 1:
        s = np.linalg.svd(a, compute_uv=False) if a.size else np.zeros(0)
        return finish(s.reshape(-1, 1), single)
    if a.size == 0:
        k = min(m, n) if econ else None
        u = np.eye(m)[:, :k] if econ else np.eye(m)
        v = np.eye(n)[:, :k] if econ else np.eye(n)
        s_mat = np.zeros((u.shape[1], v.shape[1]))
        return finish(u, single), finish(s_mat, single), finish(v, single)
    u, s, vh = np.linalg.svd(a, full_matrices=not econ)
    s_mat = np.zeros((u.shape[1], vh.shape[0]), dtype=np.float64)
    np.fill_diagonal(s_mat, s)
    return finish(u, single), finish(s_mat, single), finish(vh.conj().T, single)


def _rank_split(a: np.ndarray, single: bool) -> tuple[np.ndarray, np.ndarray, int]:
    u, s, vh = np.linalg.svd(a, full_matrices=True)
    return u, vh.conj().T, int(np.sum(s > default_tolerance(a, s, single)))


@builtin("null", category="linear_algebra", nargin=(1, 2))
def null(x: Any, tol: Any = None) -> Any:
    """Orthonormal basis of the null space (from the SVD)."""
    a, single = float_matrix(x, "null")
    require_finite(a)
    if a.size == 0:
        return finish(np.eye(a.shape[1]), single)
    u, v, r = _rank_split(a, single)
    if tol is not None:
        s = np.linalg.svd(a, compute_uv=False)
        r = int(np.sum(s > scalar_value(tol, "null")))
    return finish(v[:, r:], single)


@builtin("orth", category="linear_algebra", nargin=(1, 2))
def orth(x: Any, tol: Any = None) -> Any:
    """Orthonormal basis of the range (from the SVD)."""
    a, single = float_matrix(x, "orth")
    require_finite(a)
    if a.size == 0:
        return finish(np.zeros((a.shape[0], 0)), single)
    u, _, r = _rank_split(a, single)
    if tol is not None:
        s = np.linalg.svd(a, compute_uv=False)
        r = int(np.sum(s > scalar_value(tol, "orth")))
    return finish(u[:, :r], single)

