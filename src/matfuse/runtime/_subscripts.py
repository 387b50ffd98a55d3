"""Subscript conversion: MATLAB index values to 0-based positions.

A subscript is ``COLON``, a real number, a logical mask or a numeric/char
array. ``positions`` checks validity (positive integers or logicals) and,
for reads, the bounds, with MATLAB's messages.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.values import (
    CHAR_DTYPE,
    DeviceValue,
    char_codes,
    class_of,
    shape_of,
)


class _Marker:
    """A singleton marker with a readable repr."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


# A bare ``:`` subscript.
COLON = _Marker("COLON")
# The right-hand side of ``x(idx) = []``.
DELETE = _Marker("DELETE")


def is_colon(sub: Any) -> bool:
    """``:`` itself, or the char ``':'`` (``x(':')`` means the same)."""
    if sub is COLON:
        return True
    return type(sub) is np.ndarray and sub.dtype == CHAR_DTYPE and sub.size == 1 \
        and sub.reshape(-1)[0] == ":"


def folded_shape(shape: tuple[int, ...], n: int) -> tuple[int, ...]:
    """The shape seen by ``n`` subscripts: trailing dims fold into the last
    subscript; missing dims are 1."""
    if n == len(shape):
        return shape
    if n > len(shape):
        return shape + (1,) * (n - len(shape))
    last = 1
    for d in shape[n - 1:]:
        last *= d
    return shape[:n - 1] + (last,)


def end_value(v: Any, k: int, n: int) -> float:
    """Value of ``end`` in subscript ``k`` (0-based) of ``n`` subscripts."""
    shape = tuple(v.shape) if isinstance(v, DeviceValue) else shape_of(v)
    if n == 1:
        count = 1
        for d in shape:
            count *= d
        return float(count)
    return float(folded_shape(shape, n)[k])


def invalid_index_error(k: int, n: int) -> MatlabError:
    if n == 1:
        return MatlabError("MATLAB:badsubscript",
                           "Array indices must be positive integers or logical values.")
    return MatlabError("MATLAB:badsubscript",
                       f"Index in position {k + 1} is invalid. Array indices must be positive "
                       "integers or logical values.")


def out_of_range_error(k: int, n: int, extent: int) -> MatlabError:
    if n == 1:
        return MatlabError("MATLAB:badsubscript",
                           f"Index exceeds the number of array elements. Index must not exceed {extent}.")
    return MatlabError("MATLAB:badsubscript",
                       f"Index in position {k + 1} exceeds array bounds. Index must not exceed {extent}.")


def logical_out_of_range_error(k: int, n: int) -> MatlabError:
    if n == 1:
        return MatlabError("MATLAB:badsubscript",
                           "The logical indices contain a true value outside of the array bounds.")
    return MatlabError("MATLAB:badsubscript",
                       f"The logical indices in position {k + 1} contain a true value outside of "
                       "the array bounds.")


def positions(sub: Any, extent: int, k: int, n: int,
              check_bounds: bool) -> tuple[np.ndarray, tuple[int, ...]]:
    """0-based positions (1-D intp, in column-major order) of subscript ``k``
    of ``n`` and the shape of the index (for linear-indexing result shapes).

    ``extent`` is the size of the indexed dimension (numel for linear).
    """
    t = type(sub)
    if t is float:
        i = int(sub) if sub == sub and abs(sub) < 9.2e18 else 0
        if i != sub or i < 1:
            raise invalid_index_error(k, n)
        if check_bounds and i > extent:
            raise out_of_range_error(k, n, extent)
        return np.array([i - 1], dtype=np.intp), (1, 1)
    if t is bool:
        sub = np.array([[sub]])
        t = np.ndarray
    if isinstance(sub, DeviceValue):
        sub = sub.gather()
        return positions(sub, extent, k, n, check_bounds)
    if t is not np.ndarray:
        full = getattr(sub, "full_array", None)      # a sparse index
        if full is not None:
            return positions(full(), extent, k, n, check_bounds)
        if t is complex:
            raise invalid_index_error(k, n)
        raise MatlabError("MATLAB:index:invalidType",
                          f"Unable to use a value of type {class_of(sub)} as an index.")
    if sub.dtype == np.bool_:
        flat = sub.reshape(-1, order="F")
        pos = np.flatnonzero(flat)
        if check_bounds and pos.size and pos[-1] >= extent:
            raise logical_out_of_range_error(k, n)
        count = pos.size
        row = sub.ndim == 2 and sub.shape[0] == 1 and sub.shape[1] != 1
        return pos.astype(np.intp, copy=False), ((1, count) if row else (count, 1))
    if sub.dtype == CHAR_DTYPE:
        values = char_codes(sub).astype(np.int64).reshape(-1, order="F")
    elif sub.dtype.kind in "iu":
        values = sub.reshape(-1, order="F").astype(np.int64)
    elif sub.dtype.kind == "f":
        flat = sub.reshape(-1, order="F")
        with np.errstate(invalid="ignore"):
            values = flat.astype(np.int64)
        if not np.array_equal(values, flat):
            raise invalid_index_error(k, n)
    else:
        raise invalid_index_error(k, n)
    if values.size:
        low = values.min()
        if low < 1:
            raise invalid_index_error(k, n)
        if check_bounds and values.max() > extent:
            raise out_of_range_error(k, n, extent)
    return (values - 1).astype(np.intp, copy=False), sub.shape


def is_vector_shape(shape: tuple[int, ...]) -> bool:
    return len(shape) == 2 and (shape[0] == 1 or shape[1] == 1)


def linear_result_shape(source: tuple[int, ...], index: tuple[int, ...], count: int) -> tuple[int, ...]:
    """Shape of ``x(idx)``: idx's shape, except that a vector source indexed
    by a vector keeps the source's orientation."""
    if is_vector_shape(index) and is_vector_shape(source) and source != (1, 1):
        return (1, count) if source[0] == 1 else (count, 1)
    return index
