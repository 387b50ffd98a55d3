"""Indexing into sparse matrices: ``S(i,j)``, ``S(k)``, ``S(:)``, indexed
assignment with growth, and deletion.

Reads stay sparse (MATLAB returns a sparse result, also for one element).
Subscripts are resolved with MATLAB's rules and messages
(``_subscripts.positions``). Assignments into matrices of up to
``DENSE_WORK_LIMIT`` elements go through a full copy and the ordinary
assignment rules (every index form, growth, class conversion and error);
larger ones use scipy's LIL format for two subscripts.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._subscripts import (
    COLON,
    DELETE,
    is_colon,
    linear_result_shape,
    positions,
)
from matfuse.runtime.sparse_matrix import (
    DENSE_WORK_LIMIT,
    SparseMatrix,
    as_sparse,
    gpu_sparse_error,
)
from matfuse.runtime.values import DeviceValue, canonical, class_of
from matfuse.runtime._lazy_modules import lazy_module

sp = lazy_module("scipy.sparse")   # imported when the first sparse matrix is made


def _nd_error() -> MatlabError:
    return MatlabError("MATLAB:sparse:NDArray",
                       "Sparse matrices are 2-D: indexing with more than two subscripts needs "
                       "the trailing ones to be 1.")


def _two_subscripts(idx: list) -> list:
    """Subscripts beyond the second must be 1 (or ``:``) for a 2-D matrix."""
    for extra in idx[2:]:
        if not (is_colon(extra) or (type(extra) is float and extra == 1.0)):
            raise _nd_error()
    return idx[:2]


def _axis_positions(sub: Any, extent: int, k: int) -> np.ndarray:
    if is_colon(sub):
        return np.arange(extent, dtype=np.intp)
    pos, _ = positions(sub, extent, k, 2, True)
    return pos


def sparse_index(S: SparseMatrix, idx: list) -> Any:
    """``S(idx)`` (always sparse, as in MATLAB)."""
    if not idx:
        return S
    m, n = S.shape
    if len(idx) == 1:
        sub = idx[0]
        if is_colon(sub):
            return SparseMatrix(S.csc.T.reshape((1, m * n)).T.tocsc()) if m * n else \
                SparseMatrix(sp.csc_matrix((0, 1), dtype=S.csc.dtype))
        if type(sub) is SparseMatrix:
            sub = sub.full()
        pos, ishape = positions(sub, m * n, 0, 1, True)
        shape = linear_result_shape((m, n), ishape, pos.size)
        if len(shape) > 2:
            raise _nd_error()
        values = _values_at(S, pos % max(m, 1), pos // max(m, 1))
        k = np.arange(pos.size)
        keep = values != 0
        out = sp.csc_matrix((values[keep], (k[keep] % max(shape[0], 1), k[keep] // max(shape[0], 1))),
                            shape=shape, dtype=S.csc.dtype)
        return SparseMatrix(out)
    rsub, csub = _two_subscripts(idx)
    if type(rsub) is SparseMatrix:
        rsub = rsub.full()
    if type(csub) is SparseMatrix:
        csub = csub.full()
    rows = _axis_positions(rsub, m, 0)
    cols = _axis_positions(csub, n, 1)
    out = S.csc[:, cols][rows, :] if cols.size and rows.size else \
        sp.csc_matrix((rows.size, cols.size), dtype=S.csc.dtype)
    return SparseMatrix(out.tocsc())


def _values_at(S: SparseMatrix, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """The elements at (rows[k], cols[k]) as a 1-D array."""
    if rows.size == 0:
        return np.zeros(0, dtype=S.csc.dtype)
    return np.asarray(S.csc[rows, cols]).reshape(-1)


# ------------------------------------------------------------------ assignment
def sparse_assign(target: Any, idx: list, rhs: Any) -> Any:
    """``target(idx) = rhs`` where the target or the value is sparse.

    A full target stays full (MATLAB: "indexing on the left does not change
    the storage format"); a sparse or missing/``[]`` target gives sparse."""
    from matfuse.runtime._assign import paren_set

    if isinstance(target, DeviceValue) or isinstance(rhs, DeviceValue):
        raise gpu_sparse_error()
    if type(target) is not SparseMatrix and target is not None and not (
            type(target) is np.ndarray and target.shape == (0, 0) and target.dtype == np.float64):
        value = rhs.full() if type(rhs) is SparseMatrix else rhs
        return paren_set(target, idx, canonical(value))
    S = target if type(target) is SparseMatrix else None
    if rhs is DELETE:
        return _delete(S, idx) if S is not None else paren_set(target, idx, DELETE)
    if type(rhs) is SparseMatrix:
        value = rhs.full()
    else:
        value = rhs
        if not (type(value) in (float, bool, complex) or (
                type(value) is np.ndarray and value.dtype.kind in "fbcU")):
            raise MatlabError("MATLAB:invalidConversion",
                              f"Conversion to sparse from {class_of(value)} is not possible.")
        if type(value) is np.ndarray and value.dtype.kind == "U":
            value = value.view(np.uint32).astype(np.float64) if value.size else \
                np.zeros(value.shape)
        if type(value) is np.ndarray and value.shape == (0, 0) and S is not None:
            return _delete(S, idx)
    if S is not None and _grown_size(S, idx) > DENSE_WORK_LIMIT:
        if len(idx) == 1:
            return _assign_large_linear(S, idx[0], value)
        return _assign_large(S, _two_subscripts(idx), value)
    full = S.full() if S is not None else np.zeros((0, 0))
    result = paren_set(full, idx, canonical(value) if type(value) is np.ndarray else value)
    if type(result) is np.ndarray and result.ndim > 2:
        raise _nd_error()
    if S is not None and S.is_logical and class_of(result) != "logical":
        result = np.asarray(result, dtype=np.float64) != 0 if not (
            type(result) is np.ndarray and result.dtype.kind == "c") else result
    return as_sparse(result)


def _grown_size(S: SparseMatrix, idx: list) -> int:
    """Elements of S after an assignment that may grow it (an estimate
    from the largest numeric subscript in each position)."""
    m, n = S.shape
    dims = [m, n]
    for k, sub in enumerate(idx[:2]):
        values = np.asarray(sub, dtype=np.float64).reshape(-1) if type(sub) is float or (
            type(sub) is np.ndarray and sub.dtype.kind in "fiu") else np.zeros(0)
        values = values[np.isfinite(values)]     # NaN/Inf subscripts fail later, in positions
        if values.size:
            dims[k] = max(dims[k], int(min(values.max(), 2.0 ** 62)))
    return dims[0] * dims[1]


def _assign_large(S: SparseMatrix, idx: list, value: Any) -> SparseMatrix:
    """Two-subscript assignment into a large sparse matrix through LIL."""
    m, n = S.shape
    rpos = np.arange(m, dtype=np.intp) if is_colon(idx[0]) else positions(idx[0], m, 0, 2, False)[0]
    cpos = np.arange(n, dtype=np.intp) if is_colon(idx[1]) else positions(idx[1], n, 1, 2, False)[0]
    block = np.asarray(value)
    if block.size != 1 and block.size != rpos.size * cpos.size:
        raise MatlabError("MATLAB:subsassigndimmismatch",
                          f"Unable to perform assignment because the size of the left side is "
                          f"{rpos.size}-by-{cpos.size} and the size of the right side is "
                          f"{'-by-'.join(str(d) for d in block.shape)}.")
    new_shape = (max(m, int(rpos.max()) + 1 if rpos.size else m),
                 max(n, int(cpos.max()) + 1 if cpos.size else n))
    dtype = np.result_type(S.csc.dtype, block.dtype)
    if S.is_logical:
        dtype = np.bool_
    elif dtype == np.bool_:
        dtype = np.float64
    lil = S.csc.astype(dtype).tolil()
    if new_shape != (m, n):
        lil.resize(new_shape)
    lil[np.ix_(rpos, cpos)] = block.reshape(rpos.size, cpos.size, order="F") if block.size != 1 \
        else block.reshape(())
    return SparseMatrix(lil.tocsc())


def _assign_large_linear(S: SparseMatrix, sub: Any, value: Any) -> SparseMatrix:
    """``S(k) = v`` inside the bounds of a large sparse matrix."""
    m, n = S.shape
    if is_colon(sub):
        pos = np.arange(m * n, dtype=np.int64)
    else:
        pos, _ = positions(sub, m * n, 0, 1, True)
    values = np.asarray(value).reshape(-1, order="F")
    if values.size != 1 and values.size != pos.size:
        raise MatlabError("MATLAB:subsassignnumelmismatch",
                          "Unable to perform assignment because the left and right sides have a "
                          "different number of elements.")
    dtype = np.bool_ if S.is_logical else np.result_type(S.csc.dtype, values.dtype, np.float64)
    lil = S.csc.astype(dtype).tolil()
    rows, cols = pos % m, pos // m
    lil[rows, cols] = values if values.size != 1 else values[0]
    return SparseMatrix(lil.tocsc())


def _delete(S: SparseMatrix, idx: list) -> Any:
    """``S(idx) = []``: rows/columns with a colon in the other position, or
    elements of a vector."""
    from matfuse.runtime._deletion import delete_elements

    m, n = S.shape
    if len(idx) >= 2:
        idx = _two_subscripts(idx)
        for k, extent in ((0, m), (1, n)):
            other = idx[1 - k]
            if is_colon(other) or _covers(other, (n, m)[k]):
                sub = idx[k]
                if is_colon(sub):
                    keep = np.zeros(extent, dtype=bool)
                else:
                    pos, _ = positions(sub, extent, k, 2, True)
                    keep = np.ones(extent, dtype=bool)
                    keep[pos] = False
                kept = np.flatnonzero(keep)
                return SparseMatrix(S.csc[kept, :] if k == 0 else S.csc[:, kept])
    if m * n > DENSE_WORK_LIMIT:
        raise MatlabError("MATLAB:sparse:deletionTooLarge",
                          "Deleting single elements of a large sparse matrix is not supported; "
                          "delete whole rows or columns.")
    return as_sparse(canonical(delete_elements(S.full(), idx)))


def _covers(sub: Any, extent: int) -> bool:
    """Whether a subscript selects every position 1..extent."""
    if is_colon(sub) or sub is COLON:
        return True
    try:
        pos, _ = positions(sub, extent, 0, 2, True)
    except MatlabError:
        return False
    return np.array_equal(np.unique(pos), np.arange(extent))


SparseMatrix.index_function = sparse_index
SparseMatrix.assign_function = sparse_assign
