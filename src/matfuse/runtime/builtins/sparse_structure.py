"""Functions that work on the nonzero structure of a sparse matrix without
making it full: ``find``, ``sum``/``any``/``all`` by dimension, ``kron``,
``diag``, ``tril``/``triu``, ``istril``/``istriu``/``isdiag``,
``issymmetric``/``ishermitian``, ``isequal``, ``reshape``, ``mat2str``,
and the elementwise functions with f(0) = 0 applied to the nonzeros."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from matfuse.errors import MatlabError
from matfuse.runtime._limits import check_allocation
from matfuse.runtime.builtins._common import numeric_values
from matfuse.runtime.registry import BUILTINS
from matfuse.runtime.sparse_dispatch import call_full, sparse_method
from matfuse.runtime.sparse_matrix import SparseMatrix, as_sparse, sparse_like_result
from matfuse.runtime.values import canonical, char_array, to_array, to_str


def _outputs(values: list) -> Any:
    return tuple(values) if len(values) > 1 else values[0]


def _column(values: np.ndarray, row: bool) -> Any:
    arr = np.asarray(values, dtype=np.float64 if values.dtype.kind in "iu" else values.dtype)
    return canonical(arr.reshape(1, -1) if row else arr.reshape(-1, 1))


@sparse_method("find", nargin=(1, 3), nargout=(0, 3), needs_ctx=True, wants_nargout=True)
def sparse_find(ctx: Any, S: Any, *rest: Any, nargout: int = 1) -> Any:
    """Indices (and values) of the nonzeros, in column-major order (full)."""
    if type(S) is not SparseMatrix or rest:
        return _outputs(call_full(ctx, "find", [S, *rest], nargout))
    m, n = S.shape
    coo = S.csc.tocoo()       # CSC order: column by column, rows ascending
    row = m == 1 and n != 1
    if coo.nnz == 0 and (m, n) in ((1, 1), (0, 0)):
        empty = np.zeros((0, 0))
        return _outputs([empty] * max(nargout, 1))
    rows = coo.row.astype(np.float64) + 1
    cols = coo.col.astype(np.float64) + 1
    if nargout <= 1:
        return _column(rows + (cols - 1) * m, row)
    out = [_column(rows, row), _column(cols, row)]
    if nargout >= 3:
        out.append(_column(coo.data.copy(), row))
    return tuple(out)


def _dim_of(args: tuple, shape: tuple[int, int]) -> int | None:
    """The dimension argument (1-based) of a plain reduction call; None for
    forms the full path handles (flags, 'all', vectors of dims)."""
    if not args:
        if shape == (0, 0):
            return None
        return 2 if shape[0] == 1 else 1
    if len(args) != 1 or type(args[0]) is not float:
        return None
    d = args[0]
    return int(d) if d in (1.0, 2.0) else None


def _reduce(ctx: Any, name: str, S: Any, args: tuple, nargout: int) -> Any:
    dim = _dim_of(args, S.shape) if type(S) is SparseMatrix else None
    if dim is None:
        outputs = call_full(ctx, name, [S, *args], nargout)
        outputs[0] = as_sparse(outputs[0]) if outputs and type(outputs[0]) is not SparseMatrix \
            else outputs[0]
        return _outputs(outputs)
    axis = dim - 1
    mat = S.csc
    if name == "sum":
        data = mat.astype(np.float64) if S.is_logical else mat
        total = np.asarray(data.sum(axis=axis))
        return sparse_like_result(sp.csc_matrix(total))
    if S.is_complex:
        nonzero = mat.copy()
    else:
        nonzero = mat.astype(np.float64)
    nonzero.data = (nonzero.data != 0).astype(np.float64)
    counts = np.asarray(nonzero.sum(axis=axis))
    extent = S.shape[axis]
    result = counts > 0 if name == "any" else counts == extent
    return SparseMatrix(sp.csc_matrix(result))


@sparse_method("sum", nargin=(1, 4), needs_ctx=True, wants_nargout=True)
def sparse_sum(ctx: Any, S: Any, *args: Any, nargout: int = 1) -> Any:
    """Sums along a dimension: a sparse result."""
    return _reduce(ctx, "sum", S, args, nargout)


@sparse_method("any", nargin=(1, 2), needs_ctx=True, wants_nargout=True)
def sparse_any(ctx: Any, S: Any, *args: Any, nargout: int = 1) -> Any:
    """Whether any element along a dimension is nonzero (sparse logical)."""
    return _reduce(ctx, "any", S, args, nargout)


@sparse_method("all", nargin=(1, 2), needs_ctx=True, wants_nargout=True)
def sparse_all(ctx: Any, S: Any, *args: Any, nargout: int = 1) -> Any:
    """Whether all elements along a dimension are nonzero (sparse logical)."""
    return _reduce(ctx, "all", S, args, nargout)


def _extreme(ctx: Any, name: str, args: tuple, nargout: int) -> Any:
    """``max``/``min`` of one real sparse matrix without NaN along a
    dimension (implicit zeros take part); other forms use the full path."""
    S = args[0]
    rest = args[1:]
    simple = type(S) is SparseMatrix and nargout <= 1 and not S.is_logical \
        and not S.is_complex and (not rest or (len(rest) == 2 and type(rest[0]) is np.ndarray
                                               and rest[0].size == 0))
    dim = _dim_of(rest[1:], S.shape) if simple else None
    if dim is None or 0 in S.shape or np.isnan(S.csc.data).any():
        outputs = call_full(ctx, name, list(args), nargout)
        outputs[0] = as_sparse(outputs[0])
        return _outputs(outputs)
    mat = S.csc.max(axis=dim - 1) if name == "max" else S.csc.min(axis=dim - 1)
    return SparseMatrix(sp.csc_matrix(mat))


@sparse_method("max", nargin=(1, 4), nargout=(0, 2), needs_ctx=True, wants_nargout=True)
def sparse_max(ctx: Any, *args: Any, nargout: int = 1) -> Any:
    """Largest elements (sparse); ``max(A, B)`` elementwise."""
    return _extreme(ctx, "max", args, nargout)


@sparse_method("min", nargin=(1, 4), nargout=(0, 2), needs_ctx=True, wants_nargout=True)
def sparse_min(ctx: Any, *args: Any, nargout: int = 1) -> Any:
    """Smallest elements (sparse); ``min(A, B)`` elementwise."""
    return _extreme(ctx, "min", args, nargout)


@sparse_method("kron", nargin=(2, 2), sparse_first=False)
def sparse_kron(a: Any, b: Any) -> SparseMatrix:
    """Kronecker product; sparse when either factor is."""
    A, B = as_sparse(a), as_sparse(b)
    if A.is_logical:
        A = SparseMatrix(A.csc.astype(np.float64))
    if B.is_logical:
        B = SparseMatrix(B.csc.astype(np.float64))
    return sparse_like_result(sp.kron(A.csc, B.csc, format="csc"))


def _int_arg(v: Any, fn: str, limit: int) -> int:
    """The diagonal number k (chars are their codes), kept within
    [-limit, limit] where every larger |k| means the same."""
    arr = numeric_values(v.full() if type(v) is SparseMatrix else v)
    if arr.size != 1 or arr.dtype.kind not in "biuf":
        raise MatlabError(f"MATLAB:{fn}:kthDiagInputNotInteger",
                          "K-th diagonal input must be an integer scalar.")
    x = float(arr.reshape(-1)[0])
    if not np.isfinite(x) or x != int(x):
        raise MatlabError(f"MATLAB:{fn}:kthDiagInputNotInteger",
                          "K-th diagonal input must be an integer scalar.")
    return int(max(-limit, min(limit, x)))


@sparse_method("diag", nargin=(1, 2))
def sparse_diag(S: Any, k: Any = 0.0) -> SparseMatrix:
    """A sparse vector's diagonal matrix, or a sparse matrix's k-th diagonal
    as a sparse column."""
    m, n = S.shape
    if m == 1 or n == 1:
        offset = _int_arg(k, "diag", 2 ** 62)
        values = S.csc.toarray().reshape(-1)
        size = values.size + abs(offset)
        check_allocation((size + 1, 1), 8)       # the column pointers
        return SparseMatrix(sp.diags([values], [offset], shape=(size, size), format="csc",
                                     dtype=values.dtype))
    offset = _int_arg(k, "diag", max(m, n) + 1)
    values = S.csc.diagonal(offset) if -m < offset < n else np.zeros(0, dtype=S.csc.dtype)
    return SparseMatrix(sp.csc_matrix(values.reshape(-1, 1)))


@sparse_method("tril", nargin=(1, 2))
def sparse_tril(S: Any, k: Any = 0.0) -> SparseMatrix:
    """Lower triangular part (on and below the k-th diagonal)."""
    return SparseMatrix(sp.tril(S.csc, _int_arg(k, "tril", max(S.shape) + 1), format="csc"))


@sparse_method("triu", nargin=(1, 2))
def sparse_triu(S: Any, k: Any = 0.0) -> SparseMatrix:
    """Upper triangular part (on and above the k-th diagonal)."""
    return SparseMatrix(sp.triu(S.csc, _int_arg(k, "triu", max(S.shape) + 1), format="csc"))


def _pattern(S: SparseMatrix) -> tuple[np.ndarray, np.ndarray]:
    coo = S.csc.tocoo()
    return coo.row, coo.col


@sparse_method("istril")
def sparse_istril(S: SparseMatrix) -> bool:
    """True when no nonzero lies above the main diagonal."""
    rows, cols = _pattern(S)
    return bool(np.all(cols <= rows))


@sparse_method("istriu")
def sparse_istriu(S: SparseMatrix) -> bool:
    """True when no nonzero lies below the main diagonal."""
    rows, cols = _pattern(S)
    return bool(np.all(rows <= cols))


@sparse_method("isdiag")
def sparse_isdiag(S: SparseMatrix) -> bool:
    """True when every nonzero is on the main diagonal."""
    rows, cols = _pattern(S)
    return bool(np.all(rows == cols))


def _symmetric(S: SparseMatrix, conjugate: bool) -> bool:
    if S.shape[0] != S.shape[1]:
        return False
    other = S.csc.T.conj() if conjugate else S.csc.T
    return (S.csc != other.tocsc()).nnz == 0


@sparse_method("issymmetric", nargin=(1, 2), needs_ctx=True)
def sparse_issymmetric(ctx: Any, S: Any, *rest: Any) -> bool:
    """``S == S.'`` exactly (tolerance forms use the full matrix)."""
    if rest or type(S) is not SparseMatrix:
        return call_full(ctx, "issymmetric", [S, *rest], 1)[0]
    return _symmetric(S, False)


@sparse_method("ishermitian", nargin=(1, 2), needs_ctx=True)
def sparse_ishermitian(ctx: Any, S: Any, *rest: Any) -> bool:
    """``S == S'`` exactly (tolerance forms use the full matrix)."""
    if rest or type(S) is not SparseMatrix:
        return call_full(ctx, "ishermitian", [S, *rest], 1)[0]
    return _symmetric(S, True)


@sparse_method("isequal", nargin=(2, None), needs_ctx=True, sparse_first=False)
def sparse_isequal(ctx: Any, *args: Any) -> bool:
    """Equal sizes and values, whatever the storage (NaN differs)."""
    if all(type(a) is SparseMatrix for a in args):
        first = args[0]
        for other in args[1:]:
            if other.shape != first.shape:
                return False
            if (first.csc != other.csc).nnz:
                return False
        return True
    return call_full(ctx, "isequal", list(args), 1)[0]


@sparse_method("reshape", nargin=(2, None), needs_ctx=True)
def sparse_reshape(ctx: Any, S: Any, *dims: Any) -> Any:
    """Reshape to m-by-n keeping the column-major order (sparse)."""
    if type(S) is not SparseMatrix:
        return call_full(ctx, "reshape", [S, *dims], 1)[0]
    m, n = S.shape
    stand_in = np.lib.stride_tricks.as_strided(np.zeros(1), (m, n), (0, 0), writeable=False)
    shape = np.shape(BUILTINS["reshape"].impl(stand_in, *dims))
    if len(shape) != 2:
        raise MatlabError("MATLAB:sparse:NDArray", "N-dimensional sparse arrays are not supported.")
    coo = S.csc.tocoo()
    linear = coo.row.astype(np.int64) + coo.col.astype(np.int64) * m
    rows, cols = linear % max(shape[0], 1), linear // max(shape[0], 1)
    return SparseMatrix(sp.csc_matrix((coo.data, (rows, cols)), shape=shape))


@sparse_method("mat2str", nargin=(1, 3), needs_ctx=True)
def sparse_mat2str(ctx: Any, S: Any, *options: Any) -> Any:
    """``sparse(i,j,v,m,n)`` text that rebuilds the matrix."""
    if type(S) is not SparseMatrix:
        return call_full(ctx, "mat2str", [S, *options], 1)[0]
    text = BUILTINS["mat2str"].impl
    coo = S.csc.tocoo()
    rows = canonical((coo.row + 1).astype(np.float64).reshape(1, -1))
    cols = canonical((coo.col + 1).astype(np.float64).reshape(1, -1))
    values = canonical(coo.data.reshape(1, -1).copy())
    m, n = S.shape
    parts = [to_str(text(rows)), to_str(text(cols)), to_str(text(values, *options)), str(m), str(n)]
    return char_array("sparse(" + ",".join(parts) + ")")


# Elementwise functions with f(0) == 0: computed on the nonzeros only.
ZERO_PRESERVING = ("abs", "sqrt", "sin", "tan", "asin", "atan", "sinh", "tanh", "asinh",
                   "atanh", "floor", "ceil", "round", "fix", "real", "imag", "conj", "sign",
                   "expm1", "log1p", "deg2rad", "rad2deg")


def _on_nonzeros(name: str) -> None:
    def impl(ctx: Any, *args: Any, nargout: int = 1) -> Any:
        if len(args) != 1 or type(args[0]) is not SparseMatrix:
            outputs = call_full(ctx, name, list(args), nargout)
            outputs[0] = as_sparse(outputs[0])
            return _outputs(outputs)
        S = args[0]
        coo = S.csc.tocoo()
        data = coo.data.astype(np.float64) if S.is_logical else coo.data
        values = to_array(call_full(ctx, name, [canonical(data.reshape(-1, 1))], 1)[0])
        values = values.reshape(-1)
        if values.dtype.kind not in "fbc":
            values = values.astype(np.float64)
        return sparse_like_result(sp.csc_matrix((values, (coo.row, coo.col)), shape=S.shape))

    impl.__doc__ = f"``{name}`` of the nonzeros (the zeros stay zero)."
    sparse_method(name, nargin=(1, None), needs_ctx=True, wants_nargout=True,
                  sparse_first=False)(impl)


for _name in ZERO_PRESERVING:
    _on_nonzeros(_name)
