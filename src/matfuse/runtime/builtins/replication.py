"""Building arrays from arrays: repmat repelem blkdiag diag magic.

repmat/repelem work on every array-like value (numeric, char, logical,
cell, string, struct) through ``array_data``/``rebuild``.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._classrules import convert
from matfuse.runtime.builtins._common import int_value, parse_size_args, scalar_value
from matfuse.runtime.builtins._math_support import check_allocation, numeric_array, whole_numbers
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import (
    CellArray,
    StringArray,
    StructArray,
    canonical,
    class_of,
    normalize_shape,
    to_array,
)


def array_data(v: Any, fn: str) -> np.ndarray:
    """The element ndarray of any array-like MATLAB value."""
    if isinstance(v, (CellArray, StringArray, StructArray)):
        return v.data
    if type(v) in (float, bool, complex, np.ndarray):
        return to_array(v)
    raise MatlabError("MATLAB:UndefinedFunction",
                      f"Undefined function '{fn}' for input arguments of type '{class_of(v)}'.")


def rebuild(like: Any, data: np.ndarray) -> Any:
    """A value of ``like``'s kind holding ``data`` (MATLAB shape rules)."""
    shape = normalize_shape(data.shape)
    if data.shape != shape:
        data = data.reshape(shape, order="F")
    if isinstance(like, CellArray):
        return CellArray(data)
    if isinstance(like, StringArray):
        return StringArray(data)
    if isinstance(like, StructArray):
        # Struct elements are values: copies must not share their dicts.
        fresh = np.empty(data.shape, dtype=object)
        for pos in np.ndindex(data.shape):
            fresh[pos] = copy.copy(data[pos])
        return StructArray(list(like.fields), fresh)
    return canonical(data)


def _tile(data: np.ndarray, reps: tuple[int, ...]) -> np.ndarray:
    nd = max(data.ndim, len(reps))
    data = data.reshape(data.shape + (1,) * (nd - data.ndim))
    reps = tuple(reps) + (1,) * (nd - len(reps))
    final = tuple(d * r for d, r in zip(data.shape, reps))
    check_allocation(final, data.dtype.itemsize)
    if 0 in final:
        # np.tile would still build the non-empty intermediate axes.
        return np.empty(final, dtype=data.dtype)
    return np.tile(data, reps)


@builtin("repmat", category="construction", nargin=(2, None),
         gpu=GpuSpec(kind="indexing", hook="repmat", op="repmat"))
def repmat(a: Any, *sizes: Any) -> Any:
    """Tile a: repmat(A, n), repmat(A, m, n, ...), repmat(A, [m n ...])."""
    # Char sizes count by their codes, as numbers do.
    reps = parse_size_args([numeric_array(s, "repmat") if type(s) is np.ndarray else s
                            for s in sizes], "repmat")
    return rebuild(a, _tile(array_data(a, "repmat"), reps))


@builtin("repelem", category="construction", nargin=(2, None))
def repelem(a: Any, *counts: Any) -> Any:
    """Repeat elements: repelem(v, n) for vectors (n scalar or per element),
    repelem(A, r1, r2, ...) per dimension."""
    data = array_data(a, "repelem")
    if len(counts) == 1:
        if not (data.ndim == 2 and min(data.shape) <= 1):
            raise MatlabError("MATLAB:repelem:invalidNumberOfInputs",
                              "The first input must be a vector when called with two inputs.")
        flat = data.reshape(-1, order="F")
        reps = _counts(counts[0], flat.size, "repelem")
        check_allocation((int(np.sum(reps)) * (flat.size if np.isscalar(reps) else 1),), data.dtype.itemsize)
        out = np.repeat(flat, reps)
        # Row vectors and scalars stay rows; column vectors stay columns.
        shaped = out.reshape(1, -1) if data.shape[0] == 1 else out.reshape(-1, 1)
        return rebuild(a, shaped)
    nd = max(data.ndim, len(counts))
    out = data.reshape(data.shape + (1,) * (nd - data.ndim))
    for axis, count in enumerate(counts):
        reps = _counts(count, out.shape[axis], "repelem")
        grown = int(np.sum(reps)) * (out.shape[axis] if np.isscalar(reps) else 1)
        check_allocation(out.shape[:axis] + (grown,) + out.shape[axis + 1:], out.dtype.itemsize)
        out = np.repeat(out, reps, axis=axis)
    return rebuild(a, out)


def _counts(v: Any, n: int, fn: str) -> np.ndarray | int:
    message = "Replication factors must be a row vector of nonnegative integers."
    arr = whole_numbers(v, fn, f"MATLAB:{fn}:invalidReplications", message)
    if np.any(arr < 0):
        raise MatlabError(f"MATLAB:{fn}:invalidReplications", message)
    if arr.size == 1:
        return int(arr.reshape(-1)[0])
    if arr.size != n:
        raise MatlabError(f"MATLAB:{fn}:mismatchedReplications",
                          "Replication vector must be a scalar or have the same length as the corresponding dimension.")
    return arr.reshape(-1, order="F").astype(np.int64)


@builtin("blkdiag", category="construction")
def blkdiag(*mats: Any) -> Any:
    """Block-diagonal matrix of the inputs."""
    if not mats:
        return np.zeros((0, 0))
    arrays = []
    for m in mats:
        arr = numeric_array(m, "blkdiag") if not (type(m) is np.ndarray and m.dtype == np.bool_) else m
        if arr.ndim > 2:
            raise MatlabError("MATLAB:blkdiag:ndArrays", "N-D arrays are not supported.")
        arrays.append(arr)
    dtype = np.result_type(*[a.dtype for a in arrays])
    if any(a.dtype.kind in "iu" for a in arrays):
        dtype = next(a.dtype for a in arrays if a.dtype.kind in "iu")
    elif any(a.dtype in (np.float32, np.complex64) for a in arrays):
        dtype = np.result_type(dtype, np.float32)
        dtype = np.dtype(np.complex64) if dtype.kind == "c" else np.dtype(np.float32)
    rows = sum(a.shape[0] for a in arrays)
    cols = sum(a.shape[1] for a in arrays)
    check_allocation((rows, cols), dtype.itemsize)
    out = np.zeros((rows, cols), dtype=dtype)
    r = c = 0
    for a in arrays:
        if dtype.kind in "iu" and a.dtype != dtype:
            # MATLAB's conversion: round half away from zero and saturate
            a = convert(a.real if a.dtype.kind == "c" else a, str(dtype))
        out[r:r + a.shape[0], c:c + a.shape[1]] = a
        r += a.shape[0]
        c += a.shape[1]
    return canonical(out)


@builtin("diag", category="construction", nargin=(1, 2))
def diag(v: Any, k: Any = None) -> Any:
    """Diagonal matrix from a vector, or the k-th diagonal of a matrix
    as a column vector."""
    offset = 0 if k is None else int_value(k, "diag")
    if type(v) not in (float, bool, complex, np.ndarray):
        raise MatlabError("MATLAB:UndefinedFunction",
                          f"Undefined function 'diag' for input arguments of type '{class_of(v)}'.")
    arr = to_array(v)
    if arr.ndim > 2:
        raise MatlabError("MATLAB:diag:firstInputMustBe2D", "First input must be 2-D.")
    if arr.shape[0] == 1 or arr.shape[1] == 1:
        flat = arr.reshape(-1, order="F")
        n = flat.size + abs(offset)
        check_allocation((n, n), arr.dtype.itemsize)
        out = np.zeros((n, n), dtype=arr.dtype)
        if arr.dtype.kind == "U":
            out[:] = "\x00"
        idx = np.arange(flat.size)
        if offset >= 0:
            out[idx, idx + offset] = flat
        else:
            out[idx - offset, idx] = flat
        return rebuild(v, out)
    if abs(offset) >= max(arr.shape, default=0):
        return rebuild(v, np.zeros((0, 1), dtype=arr.dtype))
    out = np.diagonal(arr, offset).reshape(-1, 1).copy()
    if out.size == 0:
        out = np.zeros((0, 1), dtype=arr.dtype)
    return rebuild(v, out)


@builtin("magic", category="construction", nargin=(1, 1))
def magic(n: Any) -> Any:
    """Magic square of order n (MATLAB's construction; a non-integer order
    is rounded down, as MATLAB's magic does)."""
    order = scalar_value(n, "magic")
    if not math.isfinite(order):
        raise MatlabError("MATLAB:magic:nonInteger", "Input must be a finite scalar.")
    size = int(math.floor(order))
    check_allocation((size, size), 8)
    return canonical(magic_square(max(size, 0)).astype(np.float64))


def magic_square(n: int) -> np.ndarray:
    """MATLAB's magic(n): odd (siamese), doubly even, singly even (LUX)."""
    if n == 0:
        return np.zeros((0, 0), dtype=np.int64)
    if n % 2 == 1:
        j, i = np.meshgrid(np.arange(1, n + 1), np.arange(1, n + 1))
        a = np.mod(i + j - (n + 3) // 2, n)
        b = np.mod(i + 2 * j - 2, n)
        return n * a + b + 1
    if n % 4 == 0:
        j, i = np.meshgrid(np.arange(1, n + 1), np.arange(1, n + 1))
        keep = (np.mod(i, 4) // 2) == (np.mod(j, 4) // 2)
        m = np.arange(1, n * n + 1).reshape(n, n)
        m[keep] = n * n + 1 - m[keep]
        return m
    p = n // 2
    half = magic_square(p)
    m = np.block([[half, half + 2 * p * p], [half + 3 * p * p, half + p * p]])
    if n == 2:
        return m
    rows = np.arange(p)
    k = (n - 2) // 4
    cols = np.concatenate([np.arange(k), np.arange(n - k + 1, n)])
    top = m[np.ix_(rows, cols)].copy()
    m[np.ix_(rows, cols)] = m[np.ix_(rows + p, cols)]
    m[np.ix_(rows + p, cols)] = top
    i = k
    cols = np.array([0, i])
    top = m[i, cols].copy()
    m[i, cols] = m[i + p, cols]
    m[i + p, cols] = top
    return m
