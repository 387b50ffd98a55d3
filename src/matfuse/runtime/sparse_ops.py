"""Operators with a sparse operand, with MATLAB's result-storage rules.

MATLAB ("Sparse Matrix Operations"): operations on sparse matrices return
sparse matrices; with one sparse and one full operand (scalars included)
``S+F``, ``S-F``, ``S*F`` and ``F\\S`` are full while ``S.*F``, ``S&F``,
comparisons and ``S./F`` are sparse (the result is at most as dense as S,
or is logical). A scalar times a sparse matrix stays sparse.

Values are computed by scipy where that keeps MATLAB's arithmetic (finite
operands); otherwise through the full equivalents with the ordinary
elementwise rules (NaN/Inf, implicit expansion, errors), then stored
sparse when the rules say so.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._elementwise import ARITH_OPS, COMPARE_OPS, arithmetic, compare, logical_op
from matfuse.runtime._limits import check_allocation
from matfuse.runtime._matrixops import emit_warning, mldivide, mpower, mrdivide, mtimes
from matfuse.runtime.sparse_matrix import (
    DENSE_WORK_LIMIT,
    SparseMatrix,
    as_sparse,
    gpu_sparse_error,
    sparse_like_result,
)
from matfuse.runtime.values import (
    CellArray,
    DeviceValue,
    MObject,
    StringArray,
    StructArray,
    canonical,
    class_of,
    shape_of,
)
from matfuse.runtime._lazy_modules import lazy_module

sp = lazy_module("scipy.sparse")   # imported when the first sparse matrix is made

_MATRIX_OPS = {"*": mtimes, "/": mrdivide, "\\": mldivide, "^": mpower}


def _full(v: Any) -> Any:
    return canonical(v.full()) if type(v) is SparseMatrix else v


def _dense(op: str, a: Any, b: Any) -> Any:
    """``a op b`` of full numeric/logical/char operands (ops.binary's rules)."""
    a, b = _full(a), _full(b)
    if op in ARITH_OPS:
        return arithmetic(op, a, b)
    if op in COMPARE_OPS:
        return compare(op, a, b)
    if op == "&" or op == "|":
        return logical_op(op, a, b)
    return _MATRIX_OPS[op](a, b)


def _check_operand(v: Any, op: str) -> None:
    if isinstance(v, DeviceValue):
        raise gpu_sparse_error()
    if type(v) is SparseMatrix:
        return
    cls = class_of(v)
    if cls in ("single", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"):
        raise MatlabError("MATLAB:sparse:mixedClasses",
                          f"Binary operation '{op}' is not supported for a sparse matrix and a "
                          f"value of class {cls}; sparse matrices are double or logical.")


def _plain(v: Any) -> bool:
    """Numeric/logical/char operands (others take the full path's errors)."""
    return not isinstance(v, (CellArray, StructArray, StringArray)) and not (
        isinstance(v, MObject) and type(v) is not SparseMatrix)


def _is_scalar(v: Any) -> bool:
    shape = shape_of(v)
    return len(shape) == 2 and shape[0] == 1 and shape[1] == 1


def _finite_scalar(v: Any) -> float | None:
    if type(v) is float and np.isfinite(v):
        return v
    return None


def _all_finite(S: SparseMatrix) -> bool:
    return S.is_logical or bool(np.isfinite(S.csc.data).all())


def sparse_binary(op: str, a: Any, b: Any) -> Any:
    """``a op b`` where ``a`` or ``b`` is sparse; NotImplemented when the
    other operand is not numeric, logical or char (the caller applies the
    operator to the full matrix, with that class's rules and errors)."""
    if not (_plain(a) and _plain(b)):
        return NotImplemented
    _check_operand(a, op)
    _check_operand(b, op)
    if op in ("*", "\\", "/", "^"):
        return _matrix_op(op, a, b)
    fast = _fast_elementwise(op, a, b)
    if fast is not None:
        return fast
    result = _dense(op, a, b)
    return _store(result, _sparse_result(op, type(a) is SparseMatrix, type(b) is SparseMatrix))


def _sparse_result(op: str, a_sparse: bool, b_sparse: bool) -> bool:
    """MATLAB's storage of ``a op b`` with at least one sparse operand."""
    if a_sparse and b_sparse:
        return True
    if op in ("+", "-"):
        return False
    if op in ("./", ".^"):
        return a_sparse
    if op == ".\\":
        return b_sparse
    return True      # .*, &, |, comparisons


def _store(result: Any, sparse: bool) -> Any:
    if not sparse:
        return result
    if len(shape_of(result)) > 2:
        raise MatlabError("MATLAB:sparse:NDArray", "N-dimensional sparse arrays are not supported.")
    cls = class_of(result)
    if cls not in ("double", "logical"):
        raise MatlabError("MATLAB:sparse:mixedClasses",
                          f"Sparse results of class {cls} are not supported.")
    return sparse_like_result(sp.csc_matrix(np.asarray(result).reshape(shape_of(result))))


def _fast_elementwise(op: str, a: Any, b: Any) -> Any:
    """scipy paths for finite operands that keep MATLAB's values; None
    where the full path is needed."""
    ta, tb = type(a), type(b)
    if ta is SparseMatrix and tb is SparseMatrix:
        if a.shape != b.shape or a.is_logical or b.is_logical:
            return None
        if not (_all_finite(a) and _all_finite(b)):
            return None
        if op == "+":
            return sparse_like_result(a.csc + b.csc)
        if op == "-":
            return sparse_like_result(a.csc - b.csc)
        if op == ".*":
            return sparse_like_result(a.csc.multiply(b.csc).tocsc())
        return None
    S, other, left = (a, b, True) if ta is SparseMatrix else (b, a, False)
    s = _finite_scalar(other)
    if s is None or S.is_logical or not _all_finite(S):
        return None
    if op == ".*":
        return sparse_like_result(S.csc * s)
    if op == "./" and left and s != 0:
        return sparse_like_result(S.csc / s)
    if op == ".\\" and not left and s != 0:
        return sparse_like_result(S.csc / s)
    return None


# ------------------------------------------------------------------ matrix ops
def _innerdim_error() -> MatlabError:
    return MatlabError(
        "MATLAB:innerdim",
        "Incorrect dimensions for matrix multiplication. Check that the number of columns "
        "in the first matrix matches the number of rows in the second matrix. To operate "
        "on each element of the matrix individually, use TIMES (.*) for elementwise "
        "multiplication.")


def _numeric_csc(S: SparseMatrix) -> Any:
    return S.csc.astype(np.float64) if S.is_logical else S.csc


def _dense_operand(v: Any) -> np.ndarray:
    from matfuse.runtime.values import to_array

    arr = to_array(v)
    if arr.dtype.kind == "U":
        arr = arr.view(np.uint32).astype(np.float64)
    elif arr.dtype == np.bool_:
        arr = arr.astype(np.float64)
    if arr.ndim > 2:
        raise MatlabError("MATLAB:mtimes:inputsMustBe2D",
                          "Arguments must be 2-D, or at least one argument must be scalar.")
    return arr


def _matrix_op(op: str, a: Any, b: Any) -> Any:
    if op == "*":
        if _is_scalar(a) or _is_scalar(b):
            return sparse_binary(".*", a, b)
        return _mtimes(a, b)
    if op == "\\":
        if _is_scalar(a):
            return sparse_binary(".\\", a, b)
        return _mldivide(a, b)
    if op == "/":
        if _is_scalar(b):
            return sparse_binary("./", a, b)
        return _transpose_any(_mldivide(_transpose_any(b), _transpose_any(a)))
    # ^ : square sparse matrix to a nonnegative integer power stays sparse
    if type(a) is SparseMatrix and type(b) is float and b >= 0 and b == int(b) \
            and a.shape[0] == a.shape[1]:
        result = sp.identity(a.shape[0], format="csc", dtype=_numeric_csc(a).dtype)
        base = _numeric_csc(a)
        power = int(b)
        while power:
            if power & 1:
                result = result @ base
            base = base @ base
            power >>= 1
        return sparse_like_result(result)
    return _dense(op, a, b)


def _mtimes(a: Any, b: Any) -> Any:
    if shape_of(a)[1] != shape_of(b)[0]:
        raise _innerdim_error()
    if type(a) is SparseMatrix and type(b) is SparseMatrix:
        return sparse_like_result(_numeric_csc(a) @ _numeric_csc(b))
    if type(a) is SparseMatrix:
        result = _numeric_csc(a) @ _dense_operand(b)
    else:
        result = (_numeric_csc(b).T @ _dense_operand(a).T).T
    return canonical(_drop_zero_imag(np.asarray(result)))


def _transpose_any(v: Any) -> Any:
    """Transpose of a sparse or full 2-D operand of ``/``."""
    if type(v) is SparseMatrix:
        return sparse_transpose(v)
    arr = _dense_operand(v) if type(v) is not np.ndarray or v.dtype.kind not in "fc" else v
    return canonical(arr.T.copy())


def _drop_zero_imag(arr: np.ndarray) -> np.ndarray:
    if arr.dtype.kind == "c" and not np.any(arr.imag):
        return arr.real.copy()
    return arr


def _mldivide(a: Any, b: Any) -> Any:
    """``A \\ B``: a sparse direct solve for square sparse A (sparse result
    when B is sparse, full otherwise); other shapes use the full solver."""
    if shape_of(a)[0] != shape_of(b)[0]:
        raise MatlabError("MATLAB:dimagree", "Matrix dimensions must agree.")
    if type(a) is not SparseMatrix or a.shape[0] != a.shape[1]:
        result = mldivide(_full(a), _full(b))
        return as_sparse(result) if type(b) is SparseMatrix and type(a) is SparseMatrix else result
    A = _numeric_csc(a)
    B = _numeric_csc(b) if type(b) is SparseMatrix else _dense_operand(b)
    finite = np.all(np.isfinite(A.data)) and np.all(np.isfinite(B.data if sp.issparse(B) else B))
    if not finite and A.shape[0] * A.shape[1] <= DENSE_WORK_LIMIT:
        result = mldivide(canonical(A.toarray()), _full(b))      # NaN/Inf as the full solver
        return as_sparse(result) if type(b) is SparseMatrix else result
    if A.shape[0] == 0:
        shape = (0, shape_of(b)[1])
        return SparseMatrix(sp.csc_matrix(shape)) if type(b) is SparseMatrix else np.zeros(shape)
    result = _banded_solve(A, B)
    if result is None:
        result = _general_solve(A, B)
    singular = result is None or not np.all(np.isfinite(
        result.data if sp.issparse(result) else result))
    if singular and np.all(np.isfinite(A.data)):
        if A.shape[0] * A.shape[1] <= DENSE_WORK_LIMIT:     # the full solver warns
            result = mldivide(canonical(A.toarray()), _full(b))
            return as_sparse(result) if type(b) is SparseMatrix else result
        emit_warning("MATLAB:singularMatrix", "Matrix is singular to working precision.")
        if result is None:
            shape = (A.shape[1], shape_of(b)[1])
            result = np.full(shape, np.inf)
    if type(b) is SparseMatrix:
        mat = result if sp.issparse(result) else sp.csc_matrix(np.asarray(result).reshape(-1, 1))
        return sparse_like_result(mat.tocsc())
    out = np.asarray(result)
    if out.ndim == 1:
        out = out.reshape(-1, 1)
    return canonical(_drop_zero_imag(out))


# Band solver for narrow bands (tridiagonal, pentadiagonal...): MATLAB's
# backslash also picks a banded solver for them.
_MAX_BAND = 64


def _banded_solve(A: Any, B: Any) -> Any:
    """``A \\ B`` with LAPACK's band solver when A's nonzeros lie in a
    narrow band; None for wider bands or a singular matrix."""
    import scipy.linalg

    n = A.shape[0]
    coo = A.tocoo()
    if coo.nnz == 0 or n < 2 * _MAX_BAND:
        return None
    offsets = coo.col.astype(np.int64) - coo.row.astype(np.int64)
    upper, lower = max(int(offsets.max()), 0), max(-int(offsets.min()), 0)
    if lower + upper + 1 > _MAX_BAND or not np.all(np.isfinite(coo.data)):
        return None
    band = np.zeros((lower + upper + 1, n), dtype=coo.data.dtype)
    band[upper - offsets, coo.col] = coo.data
    rhs = B.toarray() if sp.issparse(B) else B
    try:
        return scipy.linalg.solve_banded((lower, upper), band, rhs, check_finite=False)
    except np.linalg.LinAlgError:
        return None


def _general_solve(A: Any, B: Any) -> Any:
    """SuperLU through scipy; None when it reports a singular matrix."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            import scipy.sparse.linalg as spla

            return spla.spsolve(A, B)
        except RuntimeError:
            return None


# ------------------------------------------------------------------ unary ops
def sparse_unary(op: str, a: SparseMatrix) -> Any:
    """``-S``, ``+S`` (sparse) and ``~S`` (a sparse logical matrix)."""
    if op == "+":
        return a
    if op == "-":
        return SparseMatrix(-_numeric_csc(a))
    data = a.csc.data
    if not a.is_logical and np.isnan(data.real if a.is_complex else data).any():
        raise MatlabError("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
    m, n = a.shape
    check_allocation((m, n), 1)
    dense_true = np.ones((m, n), dtype=bool)
    coo = a.csc.tocoo()
    dense_true[coo.row, coo.col] = False
    return SparseMatrix(sp.csc_matrix(dense_true))


def sparse_transpose(a: SparseMatrix, conjugate: bool = False) -> SparseMatrix:
    """``S.'`` and ``S'``."""
    mat = a.csc.T
    if conjugate and a.is_complex:
        mat = mat.conj()
    return SparseMatrix(mat.tocsc())
