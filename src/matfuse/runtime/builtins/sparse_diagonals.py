"""``spdiags``: sparse matrices from diagonals, and diagonals of matrices.

MATLAB's column convention: for an m-by-n result with m >= n, diagonal
d(k) takes ``B(j, k)`` for the element in column j (super-diagonals use
the lower part of B's column); with m < n it takes ``B(i, k)`` for the
element in row i.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from matfuse.errors import MatlabError
from matfuse.runtime._limits import check_allocation
from matfuse.runtime.builtins._common import numeric_values
from matfuse.runtime.registry import builtin
from matfuse.runtime.sparse_dispatch import sparse_method
from matfuse.runtime.sparse_matrix import SparseMatrix, as_sparse, sparse_like_result
from matfuse.runtime.values import canonical, to_array


def _diagonal_numbers(v: Any) -> np.ndarray:
    arr = numeric_values(v.full() if type(v) is SparseMatrix else v).reshape(-1, order="F")
    if arr.dtype.kind not in "biuf":
        raise MatlabError("MATLAB:spdiags:InvalidDiagonal", "Diagonal numbers must be integers.")
    arr = arr.astype(np.float64)
    if np.any(arr != np.floor(arr)) or not np.all(np.isfinite(arr)):
        raise MatlabError("MATLAB:spdiags:InvalidDiagonal", "Diagonal numbers must be integers.")
    return arr.astype(np.int64)


def _size(v: Any) -> int:
    arr = numeric_values(v.full() if type(v) is SparseMatrix else v).reshape(-1)
    if arr.size != 1 or arr.dtype.kind not in "biuf" or not np.isfinite(arr[0]) or arr[0] < 0 \
            or arr[0] != int(arr[0]):
        raise MatlabError("MATLAB:spdiags:InvalidSize", "Sizes must be nonnegative integers.")
    return int(arr[0])


def _matrix(v: Any) -> np.ndarray:
    arr = v.full() if type(v) is SparseMatrix else to_array(v)
    if arr.dtype == np.bool_:
        arr = arr.astype(np.float64)
    if arr.ndim > 2:
        raise MatlabError("MATLAB:spdiags:NDArray", "Inputs must be 2-D.")
    return arr


def _extract(A: Any, d: np.ndarray) -> np.ndarray:
    """B(:, k) holds diagonal d(k) of A in MATLAB's positions."""
    S = as_sparse(A)
    m, n = S.shape
    out = np.zeros((min(m, n), d.size), dtype=np.complex128 if S.is_complex else np.float64)
    for k, offset in enumerate(d.tolist()):
        if m >= n:
            first, last = max(1, 1 + offset), min(n, m + offset)
        else:
            first, last = max(1, 1 - offset), min(m, n - offset)
        if last >= first:
            out[first - 1:last, k] = S.csc.diagonal(offset)[: last - first + 1]
    return out


def _build(B: np.ndarray, d: np.ndarray, m: int, n: int) -> Any:
    """The m-by-n sparse matrix with B's columns on diagonals d."""
    check_allocation((min(m, n) * max(d.size, 1) + n + 1, 1), 16)
    if B.ndim == 2 and B.shape[1] == 1 and d.size > 1 and B.shape[0] == d.size:
        B = B.reshape(1, -1)
    if B.shape[1] != d.size and not (B.size == 1):
        raise MatlabError("MATLAB:spdiags:InvalidSizeBD",
                          "The number of columns of B must match the number of diagonals.")
    if B.size == 1:
        B = np.full((max(m, n, 1), d.size), B.reshape(-1)[0])
    rows, cols, values = [], [], []
    for k, offset in enumerate(d.tolist()):
        i = np.arange(max(1, 1 - offset), min(m, n - offset) + 1)
        if i.size == 0:
            continue
        source = i + (offset if m >= n else 0) - 1
        if source.size and source.max() >= B.shape[0]:
            raise MatlabError("MATLAB:spdiags:InvalidSizeBD",
                              "B does not have enough rows for the diagonals of the result.")
        rows.append(i - 1)
        cols.append(i - 1 + offset)
        values.append(B[source, k])
    if not rows:
        return SparseMatrix(sp.csc_matrix((m, n), dtype=np.float64))
    mat = sp.coo_matrix((np.concatenate(values), (np.concatenate(rows), np.concatenate(cols))),
                        shape=(m, n)).tocsc()
    return sparse_like_result(mat)


@builtin("spdiags", category="sparse", nargin=(1, 4), nargout=(0, 2), wants_nargout=True)
def spdiags(*args: Any, nargout: int = 1) -> Any:
    """Sparse band and diagonal matrices: ``B = spdiags(A)`` and
    ``[B, d] = spdiags(A)`` extract the nonzero diagonals, ``B =
    spdiags(A, d)`` the diagonals d, ``S = spdiags(B, d, A)`` replaces
    diagonals d of A with B's columns, ``S = spdiags(B, d, m, n)`` makes an
    m-by-n sparse matrix from them."""
    if len(args) == 1:
        S = as_sparse(args[0])
        coo = S.csc.tocoo()
        d = np.unique(coo.col.astype(np.int64) - coo.row.astype(np.int64))
        B = canonical(_extract(S, d))
        if nargout >= 2:
            return B, canonical(d.astype(np.float64).reshape(-1, 1))
        return B
    if len(args) == 2:
        return canonical(_extract(args[0], _diagonal_numbers(args[1])))
    B = _matrix(args[0])
    d = _diagonal_numbers(args[1])
    if len(args) == 4:
        return _build(B, d, _size(args[2]), _size(args[3]))
    A = as_sparse(args[2])
    m, n = A.shape
    keep = A.csc.tocoo()
    drop = np.isin(keep.col.astype(np.int64) - keep.row.astype(np.int64), d)
    rest = sp.csc_matrix((keep.data[~drop], (keep.row[~drop], keep.col[~drop])), shape=(m, n))
    added = _build(B, d, m, n)
    return sparse_like_result(rest.astype(added.csc.dtype) + added.csc)


sparse_method("spdiags", nargin=(1, 4), nargout=(0, 2), wants_nargout=True,
              sparse_first=False)(spdiags)
