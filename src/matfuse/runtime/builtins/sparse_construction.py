"""Making sparse matrices and asking about their storage: ``sparse``,
``full``, ``issparse``, ``nnz`` (of sparse matrices), ``nzmax``, ``nonzeros``, ``spalloc``,
``speye``, ``sprand``, ``sprandn``, ``spones``, ``spfun``."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from matfuse.errors import MatlabError
from matfuse.runtime._limits import check_allocation
from matfuse.runtime.builtins._common import numeric_values, parse_size_args
from matfuse.runtime import sparse_indexing  # noqa: F401  (installs S(i,j) and S(i,j) = v)
from matfuse.runtime.registry import builtin
from matfuse.runtime.sparse_dispatch import sparse_method
from matfuse.runtime.sparse_matrix import SparseMatrix, as_sparse, sparse_from_full
from matfuse.runtime.values import canonical, class_of, to_array


def _dimension(v: Any, what: str) -> int:
    arr = numeric_values(v)
    if arr.size != 1 or arr.dtype.kind == "c":
        raise MatlabError("MATLAB:sparse:sizeNotScalar", f"The {what} must be a real scalar.")
    x = float(arr.reshape(-1)[0])
    if not np.isfinite(x) or x != int(x) or x < 0:
        raise MatlabError("MATLAB:sparse:invalidSize",
                          f"The {what} must be a nonnegative integer.")
    if x > 2.0 ** 48:
        raise MatlabError("MATLAB:pmaxsize",
                          "Maximum variable size allowed by the program is exceeded.")
    return int(x)


def _empty_sparse(m: int, n: int, nnz: int = 0) -> None:
    """MATLAB's size-limit error when an m-by-n sparse matrix with nnz
    nonzeros (column pointers, row indices and values) cannot be stored."""
    check_allocation((n + 1 + 2 * nnz, 1), 8)


def _index_vector(v: Any, what: str) -> np.ndarray:
    arr = numeric_values(v).reshape(-1, order="F")
    if arr.dtype.kind == "c":
        raise MatlabError("MATLAB:sparse:invalidIndex", f"{what} indices must be real.")
    values = arr.astype(np.float64)
    if values.size and (not np.all(np.isfinite(values)) or np.any(values != np.floor(values))
                        or values.min() < 1):
        raise MatlabError("MATLAB:sparse:invalidIndex",
                          "Index into matrix must be a positive integer.")
    return values.astype(np.int64)


def _triplet(i: Any, j: Any, v: Any, m: Any = None, n: Any = None,
             nz: Any = None) -> SparseMatrix:
    rows = _index_vector(i, "Row")
    cols = _index_vector(j, "Column")
    values = to_array(v)
    if values.dtype.kind not in "fbc" or values.dtype == np.float32 or values.dtype == np.complex64:
        raise MatlabError("MATLAB:sparse:invalidClass",
                          f"Sparse matrices of class {class_of(values)} are not supported; the "
                          "values must be double or logical.")
    values = values.reshape(-1, order="F")
    count = max(rows.size, cols.size, values.size)
    for name, arr in (("row", rows), ("column", cols), ("value", values)):
        if arr.size not in (1, count):
            raise MatlabError("MATLAB:sparse:vectorLengthMismatch",
                              "Vectors must be the same length (or scalars).")
    rows = np.broadcast_to(rows, (count,))
    cols = np.broadcast_to(cols, (count,))
    values = np.broadcast_to(values, (count,))
    m_out = int(rows.max()) if count else 0
    n_out = int(cols.max()) if count else 0
    if m is not None:
        m_given, n_given = _dimension(m, "number of rows"), _dimension(n, "number of columns")
        if m_out > m_given or n_out > n_given:
            raise MatlabError("MATLAB:sparse:indexExceedsDims",
                              "Index exceeds matrix dimensions.")
        m_out, n_out = m_given, n_given
    _empty_sparse(m_out, n_out, count)
    logical = values.dtype == np.bool_
    data = values.astype(np.float64) if logical else values
    mat = sp.coo_matrix((data, (rows - 1, cols - 1)), shape=(m_out, n_out)).tocsc()
    mat.sum_duplicates()
    if logical:
        mat = mat.astype(np.bool_)
    alloc = _dimension(nz, "nzmax") if nz is not None else count
    return SparseMatrix(mat, alloc)


@builtin("sparse", category="sparse", nargin=(1, 6))
def sparse(*args: Any) -> Any:
    """Create a sparse matrix: ``sparse(A)`` squeezes out the zeros of A,
    ``sparse(m,n)`` is an m-by-n all-zero matrix, ``sparse(i,j,v)`` and
    ``sparse(i,j,v,m,n[,nzmax])`` put ``v(k)`` at ``(i(k),j(k))``, adding
    values with the same subscripts (scalars among i, j, v are expanded)."""
    if len(args) == 1:
        return sparse_from_full(args[0])
    if len(args) == 2:
        m, n = _dimension(args[0], "number of rows"), _dimension(args[1], "number of columns")
        _empty_sparse(m, n)
        return SparseMatrix(sp.csc_matrix((m, n), dtype=np.float64))
    if len(args) == 4:
        raise MatlabError("MATLAB:sparse:wrongNumberOfInputs",
                          "Use sparse(i,j,v,m,n): both the row and column counts are needed.")
    return _triplet(*args)


sparse_method("sparse", nargin=(1, 6), sparse_first=False)(sparse)


@builtin("full", category="sparse", nargin=(1, 1))
def full(x: Any) -> Any:
    """Convert a sparse matrix to full storage (full values are returned
    unchanged)."""
    if type(x) is SparseMatrix:
        return canonical(x.full())
    return x


sparse_method("full", sparse_first=False)(full)


@builtin("issparse", category="sparse", nargin=(1, 1))
def issparse(x: Any) -> bool:
    """True for a matrix in sparse storage."""
    return type(x) is SparseMatrix


sparse_method("issparse", sparse_first=False)(issparse)


def nnz(x: SparseMatrix) -> float:
    """Number of stored nonzero elements of a sparse matrix."""
    return float(x.nnz)


sparse_method("nnz")(nnz)


@builtin("nzmax", category="sparse", nargin=(1, 1))
def nzmax(x: Any) -> float:
    """Storage allocated for nonzeros: at least ``nnz`` (and 1) for a sparse
    matrix; ``numel`` for a full one."""
    if type(x) is SparseMatrix:
        return float(x.allocated)
    return float(to_array(x).size)


sparse_method("nzmax", sparse_first=False)(nzmax)


@builtin("nonzeros", category="sparse", nargin=(1, 1))
def nonzeros(x: Any) -> Any:
    """Column vector of the nonzero elements, in column-major order (full)."""
    if type(x) is SparseMatrix:
        data = x.csc.data
        return canonical(np.asarray(data).reshape(-1, 1).copy())
    arr = to_array(x)
    flat = arr.reshape(-1, order="F")
    return canonical(flat[flat != 0].reshape(-1, 1))


sparse_method("nonzeros", sparse_first=False)(nonzeros)


@builtin("spalloc", category="sparse", nargin=(3, 3))
def spalloc(m: Any, n: Any, nz: Any) -> SparseMatrix:
    """An m-by-n all-zero sparse matrix with room for nz nonzeros."""
    rows, cols = _dimension(m, "number of rows"), _dimension(n, "number of columns")
    _empty_sparse(rows, cols)
    return SparseMatrix(sp.csc_matrix((rows, cols), dtype=np.float64), _dimension(nz, "nzmax"))


@builtin("speye", category="sparse", nargin=(0, 2))
def speye(*args: Any) -> SparseMatrix:
    """Sparse identity matrix: ``speye(n)``, ``speye(m,n)``, ``speye([m n])``."""
    # itemsize 0: only the dimension limits apply, no memory is allocated per element
    shape = parse_size_args(list(args), "speye", itemsize=0) if args else (1, 1)
    if len(shape) != 2:
        raise MatlabError("MATLAB:sparse:NDArray", "N-dimensional sparse arrays are not supported.")
    _empty_sparse(shape[0], shape[1], min(shape))
    return SparseMatrix(sp.identity(min(shape), format="csc", dtype=np.float64)
                        if shape[0] == shape[1] else
                        sp.eye(shape[0], shape[1], format="csc", dtype=np.float64))


def _random_sparse(kind: str, args: tuple) -> SparseMatrix:
    from matfuse.runtime.registry import BUILTINS

    if len(args) == 1:
        S = as_sparse(args[0])
        coo = S.csc.tocoo()
        values = np.asarray(BUILTINS[kind].impl(float(coo.nnz), 1.0)).reshape(-1)
        return SparseMatrix(sp.csc_matrix((values, (coo.row, coo.col)), shape=S.shape))
    if len(args) != 3:
        raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
    m, n = _dimension(args[0], "number of rows"), _dimension(args[1], "number of columns")
    _empty_sparse(m, n)
    given = numeric_values(args[2].full() if type(args[2]) is SparseMatrix else args[2])
    density = float(given.reshape(-1)[0].real) if given.size == 1 else float("nan")
    if not 0 <= density <= 1:
        raise MatlabError("MATLAB:sprand:InvalidDensity", "Density must be between 0 and 1.")
    if m * n > 2 ** 62:
        raise MatlabError("MATLAB:pmaxsize",
                          "Maximum variable size allowed by the program is exceeded.")
    count = int(round(density * m * n))
    _empty_sparse(m, n, count)
    if count == 0:
        return SparseMatrix(sp.csc_matrix((m, n), dtype=np.float64))
    # positions drawn uniformly (repeats merged: about density*m*n nonzeros,
    # as MATLAB documents), from the session's random stream
    draws = np.asarray(BUILTINS["rand"].impl(float(count), 1.0)).reshape(-1)
    picks = np.unique(np.minimum((draws * (m * n)).astype(np.int64), m * n - 1))
    values = np.asarray(BUILTINS[kind].impl(float(picks.size), 1.0)).reshape(-1)
    return SparseMatrix(sp.csc_matrix((values, (picks % m, picks // m)), shape=(m, n)))


@builtin("sprand", category="sparse", nargin=(1, 4))
def sprand(*args: Any) -> SparseMatrix:
    """Sparse uniformly distributed random matrix: ``sprand(m,n,density)``
    has about density*m*n nonzeros; ``sprand(S)`` has S's pattern."""
    return _random_sparse("rand", args[:3])


sparse_method("sprand", nargin=(1, 4), sparse_first=False)(sprand)


@builtin("sprandn", category="sparse", nargin=(1, 4))
def sprandn(*args: Any) -> SparseMatrix:
    """Sparse normally distributed random matrix: ``sprandn(m,n,density)``
    or ``sprandn(S)`` (S's pattern)."""
    return _random_sparse("randn", args[:3])


sparse_method("sprandn", nargin=(1, 4), sparse_first=False)(sprandn)


@builtin("spones", category="sparse", nargin=(1, 1))
def spones(x: Any) -> SparseMatrix:
    """Replace the nonzero elements with ones (a sparse double matrix)."""
    S = as_sparse(x)
    mat = S.csc.astype(np.float64)
    mat.data[:] = 1.0
    return SparseMatrix(mat)


sparse_method("spones", sparse_first=False)(spones)


@builtin("spfun", category="sparse", nargin=(2, 2), needs_ctx=True)
def spfun(ctx: Any, fn: Any, x: Any) -> SparseMatrix:
    """Apply a function to the nonzero elements only: ``spfun(@exp, S)``
    keeps S's pattern (fn gets the column of nonzeros)."""
    S = as_sparse(x)
    coo = S.csc.tocoo()
    out = ctx.call(fn, [canonical(coo.data.reshape(-1, 1).astype(np.float64)
                                  if S.is_logical else coo.data.reshape(-1, 1))], 1)
    values = to_array(out[0]).reshape(-1, order="F")
    if values.size != coo.nnz:
        raise MatlabError("MATLAB:spfun:sizeMismatch",
                          "The function must return one value per nonzero element.")
    if values.dtype.kind not in "fbc":
        values = values.astype(np.float64)
    return SparseMatrix(sp.csc_matrix((values, (coo.row, coo.col)), shape=S.shape))


sparse_method("spfun", nargin=(2, 2), needs_ctx=True, sparse_first=False)(spfun)
