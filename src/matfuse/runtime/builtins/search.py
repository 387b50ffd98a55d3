"""Finding and testing elements: find any all nnz sub2ind ind2sub."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import (
    dims_arg,
    first_nonsingleton_dim,
    int_value,
    text_arg,
)
from matfuse.runtime.builtins._math_support import numeric_array, whole_numbers
from matfuse.runtime._counting import one_based
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import canonical

_DOUBLE = np.dtype(np.float64)
_LOGICAL = np.dtype(np.bool_)


def _logical_input(v: Any, fn: str) -> np.ndarray:
    if type(v) is bool:
        return np.array([[v]])
    if type(v) is np.ndarray and v.dtype == np.bool_:
        return v
    return numeric_array(v, fn)


def _nonzero(arr: np.ndarray) -> np.ndarray:
    return arr if arr.dtype == np.bool_ else arr != 0


def _find_result_shape(shape: tuple[int, ...], count: int) -> tuple[int, int]:
    """MATLAB's orientation of find's outputs: a row for a row vector, else a
    column; no hits in a 0x0 array or in a scalar give 0x0."""
    if count == 0 and shape in ((0, 0), (1, 1)):
        return (0, 0)
    if len(shape) == 2 and shape[0] == 1 and shape != (1, 1):
        return (1, count)
    return (count, 1)


@builtin("find", category="search", nargin=(1, 3), nargout=(0, 3), wants_nargout=True,
         gpu=GpuSpec(kind="indexing", hook="find", op="find"))
def find(x: Any, n: Any = None, direction: Any = None, nargout: int = 1) -> Any:
    """Indices of nonzero elements: find(X), find(X, n), find(X, n, 'last'),
    [row, col] = find(X), [row, col, v] = find(X)."""
    if type(x) is np.ndarray and nargout <= 1 and direction is None and x.ndim == 2 and x.size \
            and (x.dtype == _LOGICAL or x.dtype == _DOUBLE) \
            and (n is None or (type(n) is float and n >= 1.0 and n.is_integer())):
        return _find_indices(x, n)
    arr = _logical_input(x, "find")
    if type(x) is float and nargout <= 1 and n is None:
        return 1.0 if x != 0.0 else np.zeros((0, 0))
    flat = arr.reshape(-1, order="F")
    hits = np.flatnonzero(_nonzero(flat))
    if n is not None:
        count = int_value(n, "find")
        if count < 0 or (type(n) is float and n < 0):
            raise MatlabError("MATLAB:find:nonIntegerInput",
                              "Second argument must be a positive scalar integer.")
        last = False
        if direction is not None:
            word = text_arg(direction, "find", "direction").lower()
            if word not in ("first", "last"):
                raise MatlabError("MATLAB:find:invalidDirection",
                                  "Invalid search direction type. It must be 'first' or 'last'.")
            last = word == "last"
        hits = hits[-count:] if last and count else hits[:count]
    shape = _find_result_shape(arr.shape, hits.size)
    if nargout <= 1:
        return canonical((hits + 1).astype(np.float64).reshape(shape))
    rows = hits % arr.shape[0] if arr.shape[0] else hits
    cols = hits // arr.shape[0] if arr.shape[0] else hits
    out = [canonical((rows + 1).astype(np.float64).reshape(shape)),
           canonical((cols + 1).astype(np.float64).reshape(shape))]
    if nargout >= 3:
        out.append(canonical(flat[hits].reshape(shape)))
    return tuple(out)


def _find_indices(x: np.ndarray, n: float | None) -> Any:
    """``find(x)`` / ``find(x, n)`` of a nonempty 2-D logical or double array:
    1-based column-major positions, a row for a row vector, else a column."""
    mask = x if x.dtype == _LOGICAL else x != 0   # NaN is nonzero
    rows, cols = x.shape
    flat = mask.reshape(-1) if rows == 1 or cols == 1 else mask.reshape(-1, order="F")
    if n == 1.0:
        # The first hit only: argmax stops at the first True.
        first = int(flat.argmax())
        if flat[first]:
            return first + 1.0
        return np.zeros((1, 0) if rows == 1 else (0, 1))
    hits = flat.nonzero()[0]
    if n is not None:
        hits = hits[:int(n)]
    positions = one_based(hits, flat.size)
    return canonical(positions.reshape((1, hits.size) if rows == 1 else (hits.size, 1)))


def _truth_reduce(x: Any, dim: Any, fn: str, use_any: bool) -> Any:
    arr = _logical_input(x, fn)
    if arr.dtype.kind == "f" or arr.dtype.kind == "c":
        # any ignores NaN; all counts NaN as nonzero.
        truth = (arr != 0) & ~np.isnan(arr) if use_any else (arr != 0)
    else:
        truth = _nonzero(arr)
    if dim is None:
        if arr.shape == (0, 0):
            return not use_any
        dims: tuple[int, ...] | None = (first_nonsingleton_dim(arr.shape),)
    else:
        dims = dims_arg(dim, fn)
        if dims == ():
            raise MatlabError("MATLAB:getdimarg:dimensionMustBePositiveInteger",
                              "Dimension argument must be a positive integer scalar within indexing range.")
    if dims is not None:
        # Dimensions beyond ndims are singletons: reducing them changes nothing.
        dims = tuple(d for d in dims if d < truth.ndim)
        if not dims:
            return canonical(truth)
    if dims is None:
        return bool(truth.any()) if use_any else bool(truth.all())
    out = truth.any(axis=dims, keepdims=True) if use_any else truth.all(axis=dims, keepdims=True)
    return canonical(out)


@builtin("any", category="search", nargin=(1, 2),
         gpu=GpuSpec(kind="reduction", hook="reduce", op="any"))
def any_(x: Any, dim: Any = None) -> Any:
    """True if any element is nonzero (NaN ignored), along dim or 'all'."""
    if type(x) is float:
        if dim is None:
            return x != 0.0 and x == x
    if type(x) is bool and dim is None:
        return x
    return _truth_reduce(x, dim, "any", use_any=True)


@builtin("all", category="search", nargin=(1, 2),
         gpu=GpuSpec(kind="reduction", hook="reduce", op="all"))
def all_(x: Any, dim: Any = None) -> Any:
    """True if all elements are nonzero, along dim or 'all'."""
    if type(x) is float and dim is None:
        return x != 0.0
    if type(x) is bool and dim is None:
        return x
    return _truth_reduce(x, dim, "all", use_any=False)


@builtin("nnz", category="search", nargin=(1, 1))
def nnz(x: Any) -> Any:
    """Number of nonzero elements (NaN counts as nonzero)."""
    arr = _logical_input(x, "nnz")
    return float(np.count_nonzero(_nonzero(arr)))


# --------------------------------------------------------- sub2ind/ind2sub
def _size_vector(sz: Any, fn: str) -> list[int]:
    arr = whole_numbers(sz, fn, f"MATLAB:{fn}:InvalidSize",
                        "Size vector must have at least two elements of nonnegative integers.").reshape(-1, order="F")
    if arr.size < 1 or np.any(arr < 0):
        raise MatlabError(f"MATLAB:{fn}:InvalidSize",
                          "Size vector must have at least two elements of nonnegative integers.")
    dims = [int(d) for d in arr.tolist()]
    return dims + [1] * (2 - len(dims)) if len(dims) < 2 else dims


@builtin("sub2ind", category="search", nargin=(2, None))
def sub2ind(sz: Any, *subs: Any) -> Any:
    """Linear indices from subscripts for an array of size sz."""
    dims = _size_vector(sz, "sub2ind")
    arrays = [numeric_array(s, "sub2ind").astype(np.float64) for s in subs]
    shape = arrays[0].shape
    for a in arrays[1:]:
        if a.shape != shape:
            raise MatlabError("MATLAB:sub2ind:SubscriptVectorSize",
                              "The subscript vectors must all be of the same size.")
    # Fewer subscripts than dims: the last one spans the trailing dims.
    if len(arrays) < len(dims):
        dims = dims[:len(arrays) - 1] + [math.prod(dims[len(arrays) - 1:])]
    elif len(arrays) > len(dims):
        dims = dims + [1] * (len(arrays) - len(dims))
    index = np.zeros(shape)
    stride = 1
    for a, d in zip(arrays, dims):
        if np.any(a < 1) or np.any(a != np.floor(a)):
            raise MatlabError("MATLAB:sub2ind:SubscriptsMustBeInteger",
                              "Subscript indices must either be real positive integers or logicals.")
        if np.any(a > d):
            raise MatlabError("MATLAB:sub2ind:IndexOutOfRange", "Out of range subscript.")
        index = index + (a - 1) * stride
        stride *= d
    return canonical(index + 1)


@builtin("ind2sub", category="search", nargin=(2, 2), nargout=(0, None), wants_nargout=True)
def ind2sub(sz: Any, ind: Any, nargout: int = 1) -> Any:
    """Subscripts from linear indices; with fewer outputs than dims the last
    output spans the trailing dimensions."""
    dims = _size_vector(sz, "ind2sub")
    idx = numeric_array(ind, "ind2sub").astype(np.float64)
    count = max(nargout, 1)
    if count < len(dims):
        dims = dims[:count - 1] + [math.prod(dims[count - 1:])]
    elif count > len(dims):
        dims = dims + [1] * (count - len(dims))
    total = math.prod(dims)
    if np.any(idx < 1) or np.any(idx != np.floor(idx)) or np.any(idx > total):
        raise MatlabError("MATLAB:ind2sub:IndexOutOfRange", "Index out of range.")
    rest = idx - 1
    outs = []
    for d in dims:
        outs.append(canonical(np.mod(rest, d) + 1 if d else rest + 1))
        rest = np.floor(rest / d) if d else rest
    return tuple(outs) if count > 1 else outs[0]
