"""Special matrices: toeplitz hankel vander pascal hilb invhilb wilkinson
rosser hadamard compan, and gallery's basic test matrices.

Each follows MATLAB's documented definition; SciPy builds the ones it has
(``scipy.linalg.hadamard``, ``invhilbert``). Vectors may have either
orientation; the result keeps the input's class (single stays single).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._matrixops import emit_warning
from matfuse.runtime.builtins._common import int_value, is_text
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import CHAR_DTYPE, DeviceValue, canonical, char_codes, to_array, to_str


def _vector(v: Any, fn: str, what: str) -> np.ndarray:
    """A numeric vector argument flattened in column-major order."""
    if isinstance(v, DeviceValue):
        v = v.gather()
    arr = to_array(v)
    if arr.dtype == CHAR_DTYPE:
        arr = char_codes(arr).astype(np.float64)
    if arr.ndim > 2 or (arr.size > 0 and min(arr.shape) > 1):
        raise MatlabError(f"MATLAB:{fn}:InvalidInput", f"{what} must be a vector.")
    return arr.reshape(-1, order="F")


def _result_dtype(*arrays: np.ndarray) -> np.dtype:
    """Class of a matrix built from ``arrays``: concatenation's rule (single
    with double is single; logical data gives double)."""
    dtype = np.result_type(*arrays) if arrays else np.dtype(np.float64)
    if dtype.kind == "b":
        return np.dtype(np.float64)
    if dtype.kind in "fc" and any(a.dtype in (np.float32, np.complex64) for a in arrays):
        return np.dtype(np.complex64 if dtype.kind == "c" else np.float32)
    return dtype


def _order(v: Any, fn: str) -> int:
    n = int_value(v, fn)
    if n < 0:
        raise MatlabError(f"MATLAB:{fn}:InvalidInput", "N must be a nonnegative integer.")
    return n


@builtin("toeplitz", category="special matrices", nargin=(1, 2))
def toeplitz(c: Any, r: Any = None) -> Any:
    """Toeplitz matrix: toeplitz(c, r) has first column c and first row r
    (the column wins a diagonal conflict, with a warning); toeplitz(r) is
    symmetric (Hermitian for complex r)."""
    col = _vector(c, "toeplitz", "C")
    if r is None:
        row = col
        col = np.conj(col) if col.dtype.kind == "c" else col
        if col.size:
            col = col.copy()
            col[0] = row[0]
    else:
        row = _vector(r, "toeplitz", "R")
        if col.size and row.size and row[0] != col[0]:
            emit_warning("MATLAB:toeplitz:DiagonalConflict",
                         "First element of input column does not match first element of input row. "
                         "Column wins diagonal conflict.")
    dtype = _result_dtype(col, row)
    if col.size == 0 or row.size == 0:
        return np.zeros((col.size, row.size), dtype=dtype)
    i = np.arange(col.size)[:, None]
    j = np.arange(row.size)[None, :]
    out = np.where(i >= j, col[np.clip(i - j, 0, None)], row[np.clip(j - i, 0, None)])
    return canonical(out.astype(dtype))


@builtin("hankel", category="special matrices", nargin=(1, 2))
def hankel(c: Any, r: Any = None) -> Any:
    """Hankel matrix: hankel(c) has first column c and zeros below the
    anti-diagonal; hankel(c, r) has last row r (the column wins a conflict)."""
    col = _vector(c, "hankel", "C")
    if r is None:
        row = np.zeros(col.size, dtype=col.dtype)
        if col.size:
            row[0] = col[-1]
    else:
        row = _vector(r, "hankel", "R")
        if col.size and row.size and row[0] != col[-1]:
            emit_warning("MATLAB:hankel:AntiDiagonalConflict",
                         "Last element of input column does not match first element of input row. "
                         "Column wins anti-diagonal conflict.")
    dtype = _result_dtype(col, row)
    data = np.concatenate([col, row[1:]]) if row.size else col
    i = np.arange(col.size)[:, None]
    j = np.arange(row.size)[None, :]
    return canonical(data[i + j].astype(dtype) if col.size and row.size
                     else np.zeros((col.size, row.size), dtype=dtype))


@builtin("vander", category="special matrices", nargin=(1, 1))
def vander(v: Any) -> Any:
    """Vandermonde matrix: column j is v.^(n-j)."""
    x = _vector(v, "vander", "Input")
    if x.dtype.kind in "iu":
        x = x.astype(np.float64)
    dtype = _result_dtype(x)
    # np.vander widens float32 (it promotes with int); MATLAB keeps single.
    return canonical(np.vander(x.astype(dtype), x.size).astype(dtype))


@builtin("hilb", category="special matrices", nargin=(1, 2))
def hilb(n: Any, classname: Any = None) -> Any:
    """Hilbert matrix: H(i,j) = 1/(i+j-1); hilb(n, 'single')."""
    size = _order(n, "hilb")
    import scipy.linalg  # on first use: keeps start-up fast

    out = scipy.linalg.hilbert(size) if size else np.zeros((0, 0))
    return canonical(_cast_class(out, classname, "hilb"))


@builtin("invhilb", category="special matrices", nargin=(1, 2))
def invhilb(n: Any, classname: Any = None) -> Any:
    """Exact inverse of the Hilbert matrix (integers, exact up to n = 13)."""
    size = _order(n, "invhilb")
    import scipy.linalg  # on first use: keeps start-up fast

    out = scipy.linalg.invhilbert(size).astype(np.float64) if size else np.zeros((0, 0))
    return canonical(_cast_class(out, classname, "invhilb"))


def _cast_class(out: np.ndarray, classname: Any, fn: str) -> np.ndarray:
    if classname is None:
        return out
    name = to_str(classname) if is_text(classname) else ""
    if name not in ("double", "single"):
        raise MatlabError(f"MATLAB:{fn}:InvalidClassName", "CLASSNAME must be 'double' or 'single'.")
    return out.astype(np.float32 if name == "single" else np.float64)


@builtin("pascal", category="special matrices", nargin=(1, 3))
def pascal(n: Any, kind: Any = 0.0, classname: Any = None) -> Any:
    """Pascal matrix: pascal(n) is symmetric positive definite with integer
    entries; pascal(n,1) its lower-triangular Cholesky factor up to signs
    (involutory); pascal(n,2) a transposed and permuted pascal(n,1)."""
    if is_text(kind):
        kind, classname = 0.0, kind
    size = _order(n, "pascal")
    t = int_value(kind, "pascal")
    if t not in (0, 1, 2):
        raise MatlabError("MATLAB:pascal:InvalidType", "Second input must be 0, 1, or 2.")
    p = np.zeros((size, size))
    if size:
        p[:, 0] = 1
    for j in range(1, size):
        p[j:, j] = -np.cumsum(p[j - 1:size - 1, j - 1])
    if t == 0:
        p = p @ p.T
    elif t == 2:
        p = np.rot90(p, -1)
        if size % 2 == 0:
            p = -p
    return canonical(_cast_class(p + 0.0, classname, "pascal"))


@builtin("wilkinson", category="special matrices", nargin=(1, 2))
def wilkinson(n: Any, classname: Any = None) -> Any:
    """Wilkinson's eigenvalue test matrix: symmetric tridiagonal, ones off
    the diagonal and abs(-(n-1)/2:(n-1)/2) on it."""
    size = _order(n, "wilkinson")
    diag = np.abs(np.arange(size) - (size - 1) / 2.0)
    out = np.diag(diag) + np.diag(np.ones(max(size - 1, 0)), 1) + np.diag(np.ones(max(size - 1, 0)), -1)
    return canonical(_cast_class(out.reshape(size, size), classname, "wilkinson"))


_ROSSER = np.array([
    [611, 196, -192, 407, -8, -52, -49, 29],
    [196, 899, 113, -192, -71, -43, -8, -44],
    [-192, 113, 899, 196, 61, 49, 8, 52],
    [407, -192, 196, 611, 8, 44, 59, -23],
    [-8, -71, 61, 8, 411, -599, 208, 208],
    [-52, -43, 49, 44, -599, 411, 208, 208],
    [-49, -8, 8, 59, 208, 208, 99, -911],
    [29, -44, 52, -23, 208, 208, -911, 99]], dtype=np.float64)


@builtin("rosser", category="special matrices", nargin=(0, 1))
def rosser(classname: Any = None) -> Any:
    """Rosser's 8-by-8 symmetric eigenvalue test matrix."""
    return _cast_class(_ROSSER.copy(), classname, "rosser")


@builtin("hadamard", category="special matrices", nargin=(1, 2))
def hadamard(n: Any, classname: Any = None) -> Any:
    """Hadamard matrix of order n (n, n/12 or n/20 a power of 2)."""
    size = _order(n, "hadamard")
    out = _hadamard(size)
    return canonical(_cast_class(out.astype(np.float64), classname, "hadamard"))


def _hadamard(n: int) -> np.ndarray:
    for base, block in ((1, np.ones((1, 1))), (12, _paley(12)), (20, _paley(20))):
        if n % base == 0 and n // base > 0 and (n // base) & (n // base - 1) == 0:
            h = block
            while h.shape[0] < n:
                h = np.block([[h, h], [h, -h]])
            return h
    raise MatlabError("MATLAB:hadamard:InvalidInput",
                      "N, N/12 or N/20 must be a power of 2.")


def _paley(n: int) -> np.ndarray:
    """Hadamard matrices of orders 12 and 20 (MATLAB's hadamard.m blocks)."""
    import scipy.linalg  # on first use: keeps start-up fast

    if n == 12:
        tail = scipy.linalg.toeplitz([-1, -1, 1, -1, -1, -1, 1, 1, 1, -1, 1],
                                     [-1, 1, -1, 1, 1, 1, -1, -1, -1, 1, -1])
    else:
        tail = scipy.linalg.hankel([-1, -1, 1, 1, -1, -1, -1, -1, 1, -1, 1, -1, 1, 1, 1, 1, -1, -1, 1],
                                   [1, -1, -1, 1, 1, -1, -1, -1, -1, 1, -1, 1, -1, 1, 1, 1, 1, -1, -1])
    top = np.ones((1, n))
    return np.vstack([top, np.hstack([np.ones((n - 1, 1)), tail])])


@builtin("compan", category="special matrices", nargin=(1, 1))
def compan(u: Any) -> Any:
    """Companion matrix of the polynomial with coefficients u: its first row
    is -u(2:n)/u(1) and its eigenvalues are the polynomial's roots."""
    c = _vector(u, "compan", "Input")
    if c.dtype.kind in "iub":
        c = c.astype(np.float64)
    n = c.size
    if n == 0:
        raise MatlabError("MATLAB:compan:NeedVectorInput", "Input argument must be a vector.")
    out = np.zeros((n - 1, n - 1), dtype=c.dtype)
    if n > 1:
        out[0, :] = -c[1:] / c[0]
        out[1:, :-1] += np.eye(n - 2, dtype=c.dtype)
    return canonical(out)


def _gallery_minij(n: int, *_: Any) -> np.ndarray:
    i = np.arange(1, n + 1)
    return np.minimum.outer(i, i).astype(np.float64)


def _gallery_lehmer(n: int, *_: Any) -> np.ndarray:
    i = np.arange(1, n + 1, dtype=np.float64)
    return np.minimum.outer(i, i) / np.maximum.outer(i, i)


def _gallery_moler(n: int, alpha: float = -1.0, *_: Any) -> np.ndarray:
    """U'*U with U = triu(ones(n)) having alpha above the diagonal."""
    u = np.triu(np.full((n, n), alpha), 1) + np.eye(n)
    return u.T @ u


def _gallery_tridiag(n: int, c: float = -1.0, d: float = 2.0, e: float = -1.0, *_: Any) -> np.ndarray:
    return np.diag(np.full(n, d)) + np.diag(np.full(n - 1, c), -1) + np.diag(np.full(n - 1, e), 1)


def _gallery_pei(n: int, alpha: float = 1.0, *_: Any) -> np.ndarray:
    return alpha * np.eye(n) + np.ones((n, n))


def _gallery_kms(n: int, rho: float = 0.5, *_: Any) -> np.ndarray:
    i = np.arange(n)
    return rho ** np.abs(np.subtract.outer(i, i)).astype(np.float64)


_GALLERY = {"minij": _gallery_minij, "lehmer": _gallery_lehmer, "moler": _gallery_moler,
            "tridiag": _gallery_tridiag, "pei": _gallery_pei, "kms": _gallery_kms}


@builtin("gallery", category="special matrices", nargin=(1, None))
def gallery(name: Any, *args: Any) -> Any:
    """Test matrices: gallery('minij'|'lehmer'|'moler'|'tridiag'|'pei'|'kms', n, ...)
    and gallery('circul', v)."""
    kind = to_str(name).lower() if is_text(name) else ""
    if kind == "circul":
        v = _vector(args[0], "gallery", "V") if args else np.zeros(0)
        if v.size == 1:
            v = np.arange(1.0, float(v[0]) + 1)
        return canonical(np.array([np.roll(v, k) for k in range(v.size)]).reshape(v.size, v.size))
    if kind not in _GALLERY:
        raise MatlabError("MATLAB:gallery:unknownMatrix",
                          f"Unknown matrix name '{kind}' (supported: circul, {', '.join(sorted(_GALLERY))}).")
    if not args:
        raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
    n = _order(args[0], "gallery")
    params = [float(np.asarray(to_array(a)).reshape(-1)[0]) for a in args[1:]]
    return canonical(_GALLERY[kind](n, *params))
