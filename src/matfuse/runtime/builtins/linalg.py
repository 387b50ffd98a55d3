"""Dense linear algebra: inv pinv det rank trace cond lu qr chol expm linsolve.

Matrices are computed in double (or complex double) through LAPACK (NumPy /
SciPy, the same LAPACK routines MATLAB uses, so factor signs agree), then
cast back to single for single inputs.  Decompositions with several outputs
(eig, svd, null, orth) live in ``linalg_decomp``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._matrixops import emit_warning
from matfuse.runtime.builtins._common import is_text, scalar_value
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import (
    CHAR_DTYPE,
    DeviceValue,
    StructArray,
    canonical,
    char_codes,
    class_of,
    to_array,
    to_str,
)

EPS = float(np.finfo(np.float64).eps)


def float_matrix(v: Any, fn: str) -> tuple[np.ndarray, bool]:
    """A 2-D matrix in float64/complex128 and whether the input was single."""
    if isinstance(v, DeviceValue):
        v = v.gather()
    if type(v) not in (float, bool, complex, np.ndarray):
        raise MatlabError("MATLAB:UndefinedFunction",
                          f"Undefined function '{fn}' for input arguments of type '{class_of(v)}'.")
    arr = to_array(v)
    if arr.dtype == CHAR_DTYPE:
        arr = char_codes(arr).astype(np.float64)
    if arr.dtype.kind in "iu":
        raise MatlabError(f"MATLAB:{fn}:integerNotSupported" if fn != "chol" else "MATLAB:chol:inputType",
                          "Invalid data type. Input matrix must be double or single.")
    if arr.ndim > 2:
        raise MatlabError(f"MATLAB:{fn}:inputMustBe2D", "Input must be 2-D.")
    single = arr.dtype in (np.float32, np.complex64)
    return arr.astype(np.complex128 if arr.dtype.kind == "c" else np.float64), single


def finish(arr: Any, single: bool) -> Any:
    """Cast back to single for single inputs and apply MATLAB's shape rules."""
    a = np.asarray(arr)
    if single:
        a = a.astype(np.complex64 if a.dtype.kind == "c" else np.float32)
    if a.ndim < 2:
        a = a.reshape(1, -1) if a.ndim == 1 else a.reshape(1, 1)
    return canonical(a)


def require_finite(a: np.ndarray, fn: str = "svd") -> None:
    """SVD-based functions refuse NaN/Inf as MATLAB's svd does."""
    if not np.all(np.isfinite(a)):
        raise MatlabError("MATLAB:svd:matrixWithNaNInf", "Input to SVD must not contain NaN or Inf.")


def default_tolerance(a: np.ndarray, s: np.ndarray, single: bool) -> float:
    """MATLAB's rank tolerance ``max(size(A)) * eps(max(s))``, with ``eps``
    of the input's class (single input: single's spacing)."""
    if not s.size:
        return 0.0
    largest = np.float32(s[0]) if single else s[0]
    return float(max(a.shape) * np.spacing(largest))


def require_square(a: np.ndarray, fn: str) -> None:
    if a.shape[0] != a.shape[1]:
        raise MatlabError("MATLAB:square", "Matrix must be square.")


def rcond_of(a: np.ndarray) -> float:
    """Reciprocal 1-norm condition estimate, as MATLAB's warnings report it."""
    import scipy.linalg
    if a.size == 0:
        return np.inf
    with warnings.catch_warnings():
        # A zero pivot is reported through the return value, not a Python warning.
        warnings.simplefilter("ignore", scipy.linalg.LinAlgWarning)
        lu, piv = scipy.linalg.lu_factor(a, check_finite=False)
    if np.any(np.diag(lu) == 0):
        return 0.0
    anorm = np.max(np.sum(np.abs(a), axis=0))
    getcon = scipy.linalg.get_lapack_funcs("gecon", (lu,))
    rc, _ = getcon(lu, anorm, norm="1")
    return float(rc)


def warn_if_singular(a: np.ndarray) -> bool:
    """MATLAB's singular / nearly singular warnings; True when exactly singular."""
    if not np.all(np.isfinite(a)):
        return False
    rc = rcond_of(a)
    if rc == 0:
        emit_warning("MATLAB:singularMatrix", "Matrix is singular to working precision.")
        return True
    if rc < EPS:
        emit_warning("MATLAB:nearlySingularMatrix",
                     "Matrix is close to singular or badly scaled. Results may be inaccurate. "
                     f"RCOND = {rc:e}.")
    return False


@builtin("inv", category="linear_algebra", nargin=(1, 1),
         gpu=GpuSpec(kind="matmul", hook="inv", op="inv"))
def inv(x: Any) -> Any:
    """Matrix inverse (warns and returns Inf when singular)."""
    import scipy.linalg
    a, single = float_matrix(x, "inv")
    require_square(a, "inv")
    if a.size == 0:
        return finish(a, single)
    if warn_if_singular(a):
        return finish(np.full(a.shape, np.inf, dtype=a.dtype), single)
    with np.errstate(all="ignore"):
        return finish(scipy.linalg.inv(a, check_finite=False), single)


@builtin("pinv", category="linear_algebra", nargin=(1, 2))
def pinv(x: Any, tol: Any = None) -> Any:
    """Moore-Penrose pseudoinverse via the SVD."""
    a, single = float_matrix(x, "pinv")
    require_finite(a)
    if a.size == 0:
        return finish(np.zeros((a.shape[1], a.shape[0]), dtype=a.dtype), single)
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    t = default_tolerance(a, s, single) if tol is None else scalar_value(tol, "pinv")
    keep = s > t
    inv_s = np.where(keep, 1.0 / np.where(keep, s, 1.0), 0.0)
    return finish((vh.conj().T * inv_s) @ u.conj().T, single)


@builtin("det", category="linear_algebra", nargin=(1, 1))
def det(x: Any) -> Any:
    """Determinant from the LU factorization (det([]) = 1)."""
    import scipy.linalg
    a, single = float_matrix(x, "det")
    require_square(a, "det")
    if a.size == 0:
        return finish(np.ones((1, 1)), single)
    if not np.all(np.isfinite(a)):
        value = np.linalg.det(a)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", scipy.linalg.LinAlgWarning)   # singular: det is 0
            lu_mat, piv = scipy.linalg.lu_factor(a, check_finite=False)
        swaps = np.sum(piv != np.arange(a.shape[0]))
        value = np.prod(np.diag(lu_mat)) * (-1.0 if swaps % 2 else 1.0)
    return finish(np.array([[value]]), single)


@builtin("rank", category="linear_algebra", nargin=(1, 2))
def rank(x: Any, tol: Any = None) -> Any:
    """Number of singular values above max(size)*eps(norm(A)) (or tol)."""
    a, single = float_matrix(x, "rank")
    require_finite(a)
    if a.size == 0:
        return 0.0
    s = np.linalg.svd(a, compute_uv=False)
    t = default_tolerance(a, s, single) if tol is None else scalar_value(tol, "rank")
    return float(np.sum(s > t))


@builtin("trace", category="linear_algebra", nargin=(1, 1))
def trace(x: Any) -> Any:
    """Sum of the diagonal of a square matrix."""
    a, single = float_matrix(x, "trace")
    require_square(a, "trace")
    return finish(np.array([[np.sum(np.diag(a))]]), single)


@builtin("cond", category="linear_algebra", nargin=(1, 2))
def cond(x: Any, p: Any = None) -> Any:
    """Condition number (2-norm by default; 1, Inf, 'fro')."""
    a, single = float_matrix(x, "cond")
    if a.size == 0:
        return finish(np.zeros((1, 1)), single)
    if p is None or (not is_text(p) and scalar_value(p, "cond") == 2):
        require_finite(a)
        s = np.linalg.svd(a, compute_uv=False)
        value = np.inf if s[-1] == 0 else s[0] / s[-1]
        return finish(np.array([[value]]), single)
    require_square(a, "cond")
    from matfuse.runtime.builtins.norms import norm

    if rcond_of(a) == 0:
        return finish(np.array([[np.inf]]), single)
    return finish(np.array([[float(np.real(norm(a, p))) * float(np.real(norm(np.linalg.inv(a), p)))]]), single)


@builtin("lu", category="linear_algebra", nargin=(1, 2), nargout=(0, 3), wants_nargout=True)
def lu(x: Any, option: Any = None, nargout: int = 1) -> Any:
    """LU factorization: Y = lu(A); [L,U] = lu(A) (L permuted); [L,U,P] = lu(A, 'vector')."""
    import scipy.linalg
    a, single = float_matrix(x, "lu")
    vector = option is not None and is_text(option) and to_str(option).lower() == "vector"
    p, l, u = scipy.linalg.lu(a, check_finite=False) if a.size else (
        np.eye(a.shape[0]), np.eye(a.shape[0], min(a.shape)), np.zeros((min(a.shape), a.shape[1])))
    if nargout <= 1:
        k = min(a.shape)
        y = np.zeros(a.shape, dtype=a.dtype)
        y[:k, :] += np.triu(u)
        y[:, :k] += np.tril(l, -1)
        return finish(y, single)
    if nargout == 2:
        return finish(p @ l, single), finish(u, single)
    perm = p.T
    if vector:
        perm = (np.argmax(perm, axis=1) + 1.0).reshape(1, -1)
    return finish(l, single), finish(u, single), finish(perm, False)


@builtin("qr", category="linear_algebra", nargin=(1, 2), nargout=(0, 3), wants_nargout=True)
def qr(x: Any, option: Any = None, nargout: int = 1) -> Any:
    """QR factorization: [Q,R] = qr(A), qr(A, 0) / qr(A, "econ"), [Q,R,E] with pivoting."""
    import scipy.linalg
    a, single = float_matrix(x, "qr")
    econ = False
    vector_perm = False
    if option is not None:
        if is_text(option):
            word = to_str(option).lower()
            if word not in ("econ", "vector", "matrix"):
                raise MatlabError("MATLAB:qr:unknownOption", f"Invalid option '{to_str(option)}'.")
            econ = word in ("econ", "vector")
            vector_perm = word == "vector"
        elif scalar_value(option, "qr") == 0:
            econ = vector_perm = True
        else:
            raise MatlabError("MATLAB:qr:unknownOption", "Use qr(X,0) or qr(X,\"econ\").")
    mode = "economic" if econ else "full"
    if nargout <= 1:
        r = scipy.linalg.qr(a, mode="r", check_finite=False)[0]
        if econ:
            r = r[: min(a.shape), :]
        return finish(np.triu(r), single)
    if nargout == 2:
        q, r = scipy.linalg.qr(a, mode=mode, check_finite=False)
        return finish(q, single), finish(r, single)
    q, r, piv = scipy.linalg.qr(a, mode=mode, pivoting=True, check_finite=False)
    if vector_perm:
        e = (piv + 1.0).reshape(1, -1)
    else:
        e = np.eye(a.shape[1])[:, piv]
    return finish(q, single), finish(r, single), finish(e, False)


@builtin("chol", category="linear_algebra", nargin=(1, 2), nargout=(0, 2), wants_nargout=True)
def chol(x: Any, triangle: Any = None, nargout: int = 1) -> Any:
    """Cholesky factor R'*R = A (upper triangle used); 'lower'; [R, p] = chol(A)."""
    import scipy.linalg
    a, single = float_matrix(x, "chol")
    require_square(a, "chol")
    lower = False
    if triangle is not None:
        word = to_str(triangle).lower() if is_text(triangle) else ""
        if word not in ("upper", "lower"):
            raise MatlabError("MATLAB:chol:unknownOption", "Shape flag must be 'upper' or 'lower'.")
        lower = word == "lower"
    if a.size == 0:
        return (finish(a, single), 0.0) if nargout > 1 else finish(a, single)
    potrf = scipy.linalg.get_lapack_funcs("potrf", (a,))
    c, info = potrf(a, lower=lower, clean=True)
    if not np.all(np.isfinite(a)):
        info = max(info, 1)
    if info > 0:
        if nargout < 2:
            raise MatlabError("MATLAB:posdef", "Matrix must be positive definite.")
        k = info - 1
        r = c[:k, :k]
        return finish(np.tril(r) if lower else np.triu(r), single), float(info)
    r = np.tril(c) if lower else np.triu(c)
    return (finish(r, single), 0.0) if nargout > 1 else finish(r, single)


@builtin("expm", category="linear_algebra", nargin=(1, 1), gpu=GpuSpec(kind="matmul"))
def expm(x: Any) -> Any:
    """Matrix exponential (scaling and squaring with Pade approximants; on
    gpuArrays the device path of ``accelerate/router/matrix_exponential``)."""
    import scipy.linalg
    a, single = float_matrix(x, "expm")
    require_square(a, "expm")
    return finish(scipy.linalg.expm(a), single)


def _linsolve_opts(opts: Any) -> dict[str, bool]:
    if not isinstance(opts, StructArray) or opts.data.size != 1:
        raise MatlabError("MATLAB:linsolve:InvalidOpts", "OPTS must be a scalar structure.")
    entry = opts.data.reshape(-1)[0]
    return {k.upper(): bool(to_array(v).reshape(-1)[0]) for k, v in entry.items()}


@builtin("linsolve", category="linear_algebra", nargin=(2, 3), nargout=(0, 2), wants_nargout=True)
def linsolve(a_in: Any, b_in: Any, opts: Any = None, nargout: int = 1) -> Any:
    """Solve A*X = B (LU for square, least squares otherwise); opts LT/UT/TRANSA."""
    import scipy.linalg
    a, single_a = float_matrix(a_in, "linsolve")
    b, single_b = float_matrix(b_in, "linsolve")
    flags = _linsolve_opts(opts) if opts is not None else {}
    if flags.get("TRANSA"):
        a = a.conj().T
    if a.shape[0] != b.shape[0]:
        raise MatlabError("MATLAB:dimagree", "Matrix dimensions must agree.")
    single = single_a or single_b
    if flags.get("LT") or flags.get("UT"):
        xsol = scipy.linalg.solve_triangular(a, b, lower=bool(flags.get("LT")), check_finite=False)
        r = rcond_of(a)
    elif a.shape[0] == a.shape[1]:
        r = rcond_of(a)
        if r == 0:
            emit_warning("MATLAB:singularMatrix", "Matrix is singular to working precision.")
            with np.errstate(all="ignore"):
                xsol = np.full((a.shape[1], b.shape[1]), np.inf)
        else:
            if r < EPS:
                emit_warning("MATLAB:nearlySingularMatrix",
                             "Matrix is close to singular or badly scaled. Results may be inaccurate. "
                             f"RCOND = {r:e}.")
            xsol = scipy.linalg.solve(a, b, check_finite=False)
    elif not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        xsol = np.full((a.shape[1], b.shape[1]), np.nan)
        r = 0.0
    else:
        xsol, _, rk, _ = np.linalg.lstsq(a, b, rcond=None)
        r = float(rk)
    return (finish(xsol, single), float(r)) if nargout > 1 else finish(xsol, single)
