"""Sorting: sort sortrows issorted.

MATLAB's order: stable (ties keep their original order, also when
descending); NaN last when ascending and first when descending; complex
values by magnitude, then phase angle; text (char, cellstr, string) by
character codes. The ranking helpers are shared with the set functions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import (
    dim_arg,
    first_nonsingleton_dim,
    is_text,
    text_arg,
)
from matfuse.runtime.builtins._math_support import numeric_array, whole_numbers
from matfuse.runtime._counting import one_based
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import (
    CellArray,
    StringArray,
    canonical,
    char_codes,
    is_char,
    to_str,
)


def value_ranks(arr: np.ndarray, distinct_nan: bool = False) -> np.ndarray:
    """Dense integer ranks (same shape) ordering values ascending, NaN last,
    complex by abs then angle, text by code points (missing strings last).
    With ``distinct_nan`` every NaN gets its own rank (set functions treat
    NaNs as unequal), in flat order."""
    if arr.dtype.kind == "c":
        flat = arr.reshape(-1)
        order = np.lexsort((np.angle(flat), np.abs(flat)))
        ranks = np.empty(flat.size, dtype=np.int64)
        sorted_vals = flat[order]
        new_group = np.ones(flat.size, dtype=bool)
        new_group[1:] = ~((sorted_vals[1:] == sorted_vals[:-1])
                          | (np.isnan(sorted_vals[1:]) & np.isnan(sorted_vals[:-1])))
        ranks[order] = np.cumsum(new_group) - 1
        ranks = ranks.reshape(arr.shape)
    elif arr.dtype == object:
        keys = [(1, "") if s is None else (0, s) for s in arr.reshape(-1).tolist()]
        lookup = {k: i for i, k in enumerate(sorted(set(keys)))}
        return np.array([lookup[k] for k in keys], dtype=np.int64).reshape(arr.shape)
    else:
        if arr.dtype.kind == "U":
            arr = char_codes(arr)
        _, inverse = np.unique(arr.reshape(-1), return_inverse=True, equal_nan=True)
        ranks = inverse.reshape(arr.shape).astype(np.int64)
    if distinct_nan and arr.dtype.kind in "fc":
        nan = np.isnan(arr)
        if nan.any():
            flat = ranks.reshape(-1).copy()
            positions = np.flatnonzero(nan.reshape(-1))
            flat[positions] = flat.max() + 1 + np.arange(positions.size)
            ranks = flat.reshape(arr.shape)
    return ranks


def sort_order(arr: np.ndarray, descend: bool) -> np.ndarray:
    """Stable argsort along the last axis with MATLAB's ordering rules."""
    if not descend and arr.dtype.kind in "fiub":
        return np.argsort(arr, axis=-1, kind="stable")
    ranks = value_ranks(arr)
    return np.argsort(-ranks if descend else ranks, axis=-1, kind="stable")


def _text_items(v: Any) -> np.ndarray | None:
    """Object array of Python strings for a cellstr or string array, else None."""
    if isinstance(v, StringArray):
        return v.data
    if isinstance(v, CellArray):
        out = np.empty(v.data.shape, dtype=object)
        for pos in np.ndindex(v.data.shape):
            item = v.data[pos]
            if not (is_char(item) and item.ndim == 2 and item.shape[0] <= 1):
                raise MatlabError("MATLAB:sort:InputType",
                                  "Only cell arrays of character vectors are supported.")
            out[pos] = to_str(item)
        return out
    return None


def _parse_sort_args(args: tuple[Any, ...], shape: tuple[int, ...]) -> tuple[int, bool, str]:
    axis = None
    descend = False
    method = "auto"
    i = 0
    while i < len(args):
        a = args[i]
        if is_text(a):
            word = to_str(a).lower()
            if word in ("ascend", "descend"):
                descend = word == "descend"
            elif word == "comparisonmethod" and i + 1 < len(args):
                i += 1
                method = text_arg(args[i], "sort", "comparison method").lower()
                if method not in ("auto", "real", "abs"):
                    raise MatlabError("MATLAB:sort:InvalidComparisonMethod",
                                      "Comparison method must be 'auto', 'real', or 'abs'.")
            elif word == "missingplacement" and i + 1 < len(args):
                i += 1
            else:
                raise MatlabError("MATLAB:sort:sortDirection",
                                  "Sort direction must be 'ascend' or 'descend'.")
        else:
            axis = dim_arg(a, "sort")
        i += 1
    if axis is None:
        axis = first_nonsingleton_dim(shape)
    return axis, descend, method


def _comparison_keys(arr: np.ndarray, method: str) -> np.ndarray:
    """Array whose default ordering is the requested comparison method."""
    if method == "abs" and arr.dtype.kind in "fiub":
        # By magnitude, then phase: 1 before -1 (angle 0 < pi).
        return arr.astype(np.complex128)
    if method == "real" and arr.dtype.kind == "c":
        flat = arr.reshape(-1)
        order = np.lexsort((flat.imag, flat.real))
        ranks = np.empty(flat.size, dtype=np.int64)
        sorted_vals = flat[order]
        new_group = np.ones(flat.size, dtype=bool)
        new_group[1:] = sorted_vals[1:] != sorted_vals[:-1]
        ranks[order] = np.cumsum(new_group) - 1
        return ranks.reshape(arr.shape)
    return arr


@builtin("sort", category="sort", nargin=(1, 6), nargout=(0, 2), wants_nargout=True,
         gpu=GpuSpec(kind="sort", hook="sort", op="sort"))
def sort(x: Any, *args: Any, nargout: int = 1) -> Any:
    """Sort along a dimension: sort(A), sort(A, dim), sort(A, 'descend'),
    [B, I] = sort(...). Works for numeric, logical, char, cellstr, string."""
    quick = _sort_double_vector(x, args, nargout)
    if quick is not None:
        return quick
    texts = _text_items(x)
    data = texts if texts is not None else (
        x if type(x) is np.ndarray else
        np.array([[x]]) if type(x) is bool else numeric_array(x, "sort"))
    axis, descend, method = _parse_sort_args(args, data.shape)
    if axis >= data.ndim:
        # Sorting along a singleton dimension: nothing moves.
        return (x, canonical(np.ones(data.shape))) if nargout >= 2 else x
    moved = np.moveaxis(data, axis, -1)
    order = sort_order(moved if texts is not None else _comparison_keys(moved, method), descend)
    result = np.moveaxis(np.take_along_axis(moved, order, axis=-1), -1, axis)
    if texts is not None:
        out: Any = StringArray(result) if isinstance(x, StringArray) else _cellstr(result)
    else:
        out = canonical(result)
    if nargout < 2:
        return out
    index = np.moveaxis(order, -1, axis).astype(np.float64) + 1
    return out, canonical(index)


_DOUBLE = np.dtype(np.float64)

# 'ascend' / 'descend' as the bytes of their char rows: True for descending.
_SORT_MODES = {np.array([list(word)]).tobytes(): word == "descend"
               for word in ("ascend", "descend")}


def _sort_double_vector(x: Any, args: tuple, nargout: int) -> Any:
    """``sort(v)`` / ``sort(v, 'descend')`` of a real double vector without
    NaN (the common small-vector case): one stable sort. None otherwise."""
    if type(x) is not np.ndarray or x.ndim != 2:
        return None
    dtype = x.dtype
    if dtype is not _DOUBLE and dtype != _DOUBLE:
        return None
    rows, cols = x.shape
    if rows != 1 and cols != 1:
        return None
    descend = False
    if args:
        if len(args) > 1:
            return None
        descend = _vector_sort_mode(args[0])
        if descend is None:
            return None
    count = x.size
    if count <= 1:
        if count == 0 or x.item(0) != x.item(0):
            return None
        return (x.item(0), 1.0) if nargout >= 2 else x.item(0)
    # Along the vector's own axis: order, values and indices keep its shape.
    # Stable either way: equal values keep their order (descending sorts
    # the negated values, as MATLAB keeps ties in order there too).
    axis = 1 if rows == 1 else 0
    if nargout < 2:
        if descend:
            ordered = np.negative(x)
            ordered.sort(axis=axis, kind="stable")
            np.negative(ordered, out=ordered)
        else:
            ordered = x.copy()
            ordered.sort(axis=axis, kind="stable")
    else:
        order = (np.negative(x) if descend else x).argsort(axis=axis, kind="stable")
        ordered = x.take(order)   # flat positions of a vector: shaped as order
    last = ordered.item(-1)
    if last != last:
        return None   # NaN sorts last either way: the general path places it
    if nargout < 2:
        return ordered
    return ordered, one_based(order, count)


# The last frozen (shared literal) mode argument seen and its meaning: a
# literal ``'descend'`` in a loop is the same read-only array every time.
_last_mode: list = [None, False]


def _vector_sort_mode(mode: Any) -> bool | None:
    """True for 'descend', False for 'ascend' (any case); None for anything
    else (the general path parses it and reports errors)."""
    if mode is _last_mode[0]:
        return _last_mode[1]
    if not (type(mode) is np.ndarray and mode.ndim == 2 and mode.shape[0] == 1
            and mode.dtype.kind == "U"):
        return None
    descend = _SORT_MODES.get(mode.tobytes())
    if descend is None:
        text = "".join(mode[0].tolist()).lower()
        if text not in ("ascend", "descend"):
            return None
        descend = text == "descend"
    if not mode.flags.writeable:
        _last_mode[0] = mode
        _last_mode[1] = descend
    return descend


def _cellstr(strings: np.ndarray) -> CellArray:
    from matfuse.runtime.values import char_array

    data = np.empty(strings.shape, dtype=object)
    for pos in np.ndindex(strings.shape):
        data[pos] = char_array(strings[pos])
    return CellArray(data)


def _row_ranks(x: Any, fn: str) -> tuple[np.ndarray, Any]:
    """Per-column ranks (rows x cols) of a matrix or cellstr, and the data."""
    texts = _text_items(x)
    if texts is not None:
        if texts.ndim != 2:
            raise MatlabError(f"MATLAB:{fn}:inputDimensionMismatch", "Input must be a 2-D matrix.")
        return np.stack([value_ranks(texts[:, j]) for j in range(texts.shape[1])], axis=1) \
            if texts.shape[1] else np.zeros(texts.shape, dtype=np.int64), texts
    data = x if type(x) is np.ndarray else numeric_array(x, fn)
    if data.ndim != 2:
        raise MatlabError(f"MATLAB:{fn}:inputDimensionMismatch", "Input must be a 2-D matrix.")
    cols = [value_ranks(data[:, j]) for j in range(data.shape[1])]
    ranks = np.stack(cols, axis=1) if cols else np.zeros(data.shape, dtype=np.int64)
    return ranks, data


def rows_order(ranks: np.ndarray, columns: list[int]) -> np.ndarray:
    """Stable row order by signed 1-based column list (negative: descending)."""
    keys = []
    for c in reversed(columns):
        key = ranks[:, abs(c) - 1]
        keys.append(-key if c < 0 else key)
    if not keys:
        return np.arange(ranks.shape[0])
    return np.lexsort(keys)


@builtin("sortrows", category="sort", nargin=(1, 3), nargout=(0, 2), wants_nargout=True,
         gpu=GpuSpec(kind="sort", hook="sortrows", op="sortrows"))
def sortrows(x: Any, column: Any = None, direction: Any = None, nargout: int = 1) -> Any:
    """Sort rows: sortrows(A), sortrows(A, cols) (negative = descending),
    sortrows(A, 'descend'), sortrows(A, cols, direction), [B, i] = ..."""
    ranks, data = _row_ranks(x, "sortrows")
    ncols = ranks.shape[1]
    descend_all = False
    if column is not None and is_text(column):
        direction, column = column, None
    if direction is not None:
        word = text_arg(direction, "sortrows", "direction").lower()
        if word not in ("ascend", "descend"):
            raise MatlabError("MATLAB:sortrows:sortDirection",
                              "Sorting direction must be 'ascend' or 'descend'.")
        descend_all = word == "descend"
    if column is None or (type(column) is np.ndarray and column.size == 0):
        columns = list(range(1, ncols + 1))
    else:
        message = ("Column sorting vector must contain integers with absolute value between 1 "
                   "and the number of columns in the first argument.")
        spec = whole_numbers(column, "sortrows", "MATLAB:sortrows:COLmismatchX", message).reshape(-1, order="F")
        if np.any(spec == 0) or np.any(np.abs(spec) > ncols):
            raise MatlabError("MATLAB:sortrows:COLmismatchX",
                              "Column sorting vector must contain integers with absolute value between 1 and the number of columns in the first argument.")
        columns = [int(c) for c in spec.tolist()]
    if descend_all:
        columns = [-c for c in columns]
    order = rows_order(ranks, columns)
    sorted_data = data[order, :]
    if isinstance(x, CellArray):
        out: Any = CellArray(x.data[order, :])
    elif isinstance(x, StringArray):
        out = StringArray(sorted_data)
    else:
        out = canonical(sorted_data)
    if nargout < 2:
        return out
    return out, canonical((order + 1).astype(np.float64).reshape(-1, 1))


@builtin("issorted", category="sort", nargin=(1, 3))
def issorted(x: Any, *args: Any) -> Any:
    """True if the elements (or rows, with 'rows') are in sorted order."""
    words = [to_str(a).lower() for a in args if is_text(a)]
    for word in words:
        if word not in ("rows", "ascend", "descend"):
            # An unknown word must not be skipped: that answers a different question.
            raise MatlabError("MATLAB:issorted:sortDirection",
                              "Sort direction must be 'ascend' or 'descend'.")
    if "rows" in words:
        ranks, _ = _row_ranks(x, "issorted")
        sign = -1 if "descend" in words else 1
        order = rows_order(ranks, [sign * c for c in range(1, ranks.shape[1] + 1)])
        return bool(np.array_equal(order, np.arange(ranks.shape[0])))
    descend = "descend" in words
    texts = _text_items(x)
    data = texts if texts is not None else (
        x if type(x) is np.ndarray else np.array([[x]]) if type(x) is bool else numeric_array(x, "issorted"))
    dims = [a for a in args if not is_text(a)]
    axis = dim_arg(dims[0], "issorted") if dims else first_nonsingleton_dim(data.shape)
    if axis >= data.ndim:
        return True
    moved = np.moveaxis(data, axis, -1)
    order = sort_order(moved, descend)
    return bool(np.array_equal(order, np.broadcast_to(np.arange(moved.shape[-1]), order.shape)))
