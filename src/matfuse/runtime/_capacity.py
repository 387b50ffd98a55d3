"""Growth into spare capacity: ``x(end+1) = v``, ``c{end+1} = v``,
``s(end+1).f = v`` and ``M(end+1, :) = row`` on values nobody else holds.

A grown vector (or row-appended matrix) is a *prefix view* of a larger
buffer; the next append writes into the buffer's spare room and returns a
longer view, and a full buffer is replaced by one twice the size, so n
appends cost O(n) in all. Callers decide ownership (MATLAB's copy on
write) before calling these.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from matfuse.runtime._containers import empty_struct_element
from matfuse.runtime.values import CellArray, StructArray

_F64 = np.dtype(np.float64)

# Views made by ``vector_prefix``, by id: a view found here (and still the
# same object) starts at its buffer's first element, so it can be widened in
# place. Weak references without callbacks (cheaper than a weak-valued
# dict on every append); a view widened in place drops its predecessor's
# entry, and dead entries are swept when the table doubles.
_PREFIX_VIEWS: dict[int, "weakref.ref[np.ndarray]"] = {}
_SWEEP_AT = [4096]


def remember_prefix(view: np.ndarray, replaces: np.ndarray | None = None) -> np.ndarray:
    """Record ``view`` as a prefix view (of its buffer); ``replaces``: the
    view it supersedes, whose entry goes."""
    views = _PREFIX_VIEWS
    if replaces is not None:
        views.pop(id(replaces), None)
    views[id(view)] = weakref.ref(view)
    if len(views) > _SWEEP_AT[0]:
        for key in [k for k, ref in views.items() if ref() is None]:
            del views[key]
        _SWEEP_AT[0] = max(4096, 2 * len(views))
    return view


def vector_prefix(buffer: np.ndarray, shape: tuple[int, ...],
                  replaces: np.ndarray | None = None) -> np.ndarray:
    """The first elements of a row or column buffer, as a view of ``shape``
    (remembered as a prefix view: see ``is_prefix_view``)."""
    view = buffer[:, :shape[1]] if shape[0] == 1 else buffer[:shape[0], :]
    return remember_prefix(view, replaces)


def is_prefix_view(arr: np.ndarray) -> bool:
    """``arr`` was made by ``vector_prefix`` (it starts its buffer)."""
    ref = _PREFIX_VIEWS.get(id(arr))
    return ref is not None and ref() is arr


def append_double(data: np.ndarray, value: float) -> np.ndarray | None:
    """``x(end+1) = value`` on an owned double vector (or empty): see
    ``_append_into_buffer``. None for a matrix (the general path names the
    error)."""
    return _append_into_buffer(data, value)


def append_cell(v: CellArray, value: Any) -> CellArray | None:
    """``c{end+1} = value`` on an owned cell vector (or empty); None for a
    cell matrix or an N-d cell."""
    data = v.data
    if data.ndim != 2:
        return None
    out = _append_into_buffer(data, value)
    return CellArray(out) if out is not None else None


def append_struct(v: StructArray) -> StructArray | None:
    """``v`` (an owned struct vector, or empty) with one more element, its
    fields empty ([]), in spare capacity; None for a matrix or N-d array."""
    data = v.data
    if data.ndim != 2:
        return None
    out = _append_into_buffer(data, empty_struct_element(v.fields))
    return StructArray(v.fields, out) if out is not None else None


def _append_into_buffer(data: np.ndarray, value: Any) -> np.ndarray | None:
    """``data`` (an owned 2-D vector, or empty) with ``value`` appended:
    written into spare capacity of its buffer, or a new buffer of twice the
    elements, so n appends cost O(n). None for a matrix."""
    rows, cols = data.shape
    count = rows * cols
    if rows == 1 or (count == 0 and cols != 1):
        along_rows = False
    elif cols == 1:
        along_rows = True
    else:
        return None
    dtype = data.dtype
    base = data.base
    if count and type(base) is np.ndarray and base.dtype == dtype and base.ndim == 2 \
            and data.strides == base.strides and is_prefix_view(data):
        if along_rows:
            if base.shape[1] == 1 and base.shape[0] > count:
                out = remember_prefix(base[:count + 1, :], data)
                out[count, 0] = value
                return out
        elif base.shape[0] == 1 and base.shape[1] > count:
            out = remember_prefix(base[:, :count + 1], data)
            out[0, count] = value
            return out
    capacity = max(2 * count, 4)
    if along_rows:
        buffer = np.empty((capacity, 1), dtype=dtype, order="F")
        buffer[:count, 0] = data[:, 0]
        out = remember_prefix(buffer[:count + 1, :], data)
        out[count, 0] = value
    else:
        buffer = np.empty((1, capacity), dtype=dtype, order="F")
        if count:
            buffer[0, :count] = data.reshape(-1, order="F")
        out = remember_prefix(buffer[:, :count + 1], data)
        out[0, count] = value
    return out


def append_row_values(data: np.ndarray, position: float, row: np.ndarray) -> np.ndarray | None:
    """``data(end+1, :) = row`` on an owned double matrix of two or more
    columns, ``row`` a double row of its width: the rows live in a row-major
    buffer with spare rows (a new one holds twice the rows), so a loop
    appending n rows costs O(n) in all. None for any other case."""
    if data.ndim != 2 or data.dtype != _F64 or row.dtype != _F64:
        return None
    rows, cols = data.shape
    if cols < 2 or row.shape != (1, cols) or position != rows + 1:
        return None
    base = data.base
    if type(base) is np.ndarray and base.ndim == 2 and base.shape[1] == cols \
            and base.shape[0] > rows and base.dtype == _F64 and base.flags.c_contiguous \
            and data.strides == base.strides and is_prefix_view(data):
        out = base[:rows + 1, :]
    else:
        buffer = np.empty((max(2 * rows, 4), cols), dtype=_F64, order="C")
        buffer[:rows, :] = data
        out = buffer[:rows + 1, :]
    remember_prefix(out, data)
    out[rows, :] = row[0]
    return out
