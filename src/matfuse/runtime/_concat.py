"""Concatenation: ``[a, b; c]``, ``{a, b; c}``, ``horzcat``/``vertcat``/``cat``.

Class rules (MATLAB's "combining unlike classes"): any cell makes a cell
(other items are wrapped), any string makes a string array, structs need the
same field names, and numeric/char/logical follow ``concat_class``. Empty
``0x0`` arrays are skipped for sizes but still count for the class.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._capacity import is_prefix_view, vector_prefix
from matfuse.runtime.classdef_arrays import OBJECT_TYPES, objects_to_concatenate, wrap_objects
from matfuse.runtime._classrules import concat_class, convert
from matfuse.runtime._elementwise import string_of
from matfuse.runtime.sparse_matrix import SparseMatrix, sparse_cat
from matfuse.runtime.values import (
    CellArray,
    DeviceValue,
    FunctionHandle,
    MObject,
    StringArray,
    StructArray,
    canonical,
    class_of,
    empty_double,
    normalize_shape,
    to_array,
)

_DIM_MESSAGE = "Dimensions of arrays being concatenated are not consistent."


def _dim_error() -> MatlabError:
    return MatlabError("MATLAB:catenate:dimensionMismatch", _DIM_MESSAGE)


def _join_arrays(arrays: list[np.ndarray], axis: int) -> np.ndarray:
    """Concatenate ndarrays of one dtype along ``axis`` (0-based), checking
    MATLAB's size rule; 0x0 arrays, and empties that do not fit, are skipped."""
    kept = [a for a in arrays if not (a.ndim == 2 and a.shape == (0, 0))]
    if not kept:
        return arrays[0] if arrays else empty_double()
    ndim = max(max(a.ndim for a in kept), axis + 1)
    padded = [a.reshape(a.shape + (1,) * (ndim - a.ndim)) for a in kept]

    def others(shape: tuple[int, ...]) -> tuple[int, ...]:
        return shape[:axis] + shape[axis + 1:]

    nonempty = [a for a in padded if a.size]
    if nonempty:
        ref = others(nonempty[0].shape)
        padded = [a for a in padded if a.size or others(a.shape) == ref]
    else:
        ref = others(padded[0].shape)
    for a in padded:
        if others(a.shape) != ref:
            raise _dim_error()
    out = padded[0] if len(padded) == 1 else np.concatenate(padded, axis=axis)
    return out.reshape(normalize_shape(out.shape), order="F") if out.ndim > 2 else out


def _as_cell(v: Any) -> CellArray:
    if isinstance(v, CellArray):
        return v
    return CellArray.from_list([v], (1, 1))


def _is_empty_double(v: Any) -> bool:
    return type(v) is np.ndarray and v.shape == (0, 0) and v.dtype == np.float64


def cat_values(values: list[Any], axis: int) -> Any:
    """Concatenate MATLAB values along 0-based ``axis`` with the class rules."""
    if any(isinstance(v, DeviceValue) for v in values):
        values = [v.gather() if isinstance(v, DeviceValue) else v for v in values]
    if not values:
        return empty_double()
    if len(values) == 1:
        v = values[0]
        if isinstance(v, FunctionHandle) or isinstance(v, MObject) or isinstance(v, MatlabError):
            return v
    kinds = {type(v) for v in values}
    if CellArray in kinds:
        # [] mixed with cells is dropped; other values are wrapped in 1x1 cells.
        cells = [_as_cell(v) for v in values if not _is_empty_double(v)]
        if not cells:
            return CellArray.empty()
        return CellArray(_join_arrays([c.data for c in cells], axis))
    if StructArray in kinds:
        return _cat_structs([v for v in values if not _is_empty_double(v)], axis)
    if StringArray in kinds:
        parts = [_string_part(v) for v in values if not _is_empty_double(v)]
        return StringArray(_join_arrays(parts, axis))
    if any(type(v) in OBJECT_TYPES for v in values):
        cls, parts = objects_to_concatenate(values)
        return wrap_objects(cls, _join_arrays(parts, axis))
    if any(type(v) is SparseMatrix for v in values):
        return sparse_cat(values, axis)
    if any(getattr(k, "concatenates_by_coercion", False) for k in kinds):   # datetime, duration...
        return _concat_coerced(values, axis)
    objects = [v for v in values if not _is_empty_double(v)]
    if objects and all(hasattr(v, "element_array") for v in objects):   # graphics handles
        return objects[0].from_elements(_join_arrays([v.element_array() for v in objects], axis))
    for v in values:
        if isinstance(v, FunctionHandle):
            raise MatlabError("MATLAB:concatenation:functionHandle" if len(values) > 1 else "",
                              "Nonscalar arrays of function handles are not allowed; use cell arrays instead.")
        if not (type(v) in (float, bool, complex, np.ndarray)):
            raise MatlabError("MATLAB:concatenation:unsupported",
                              f"Concatenation of values of class '{class_of(v)}' is not supported.")
    if len(values) == 1:
        return values[0]
    arrays = [to_array(v) for v in values]
    cls = concat_class([class_of(a) for a in arrays])
    converted = [convert(a, cls) if class_of(a) != cls else a for a in arrays]
    if any(a.dtype.kind == "c" for a in converted):
        ctype = np.complex64 if cls == "single" else np.complex128
        converted = [a.astype(ctype) for a in converted]
    return canonical(_join_arrays(converted, axis))


def _string_part(v: Any) -> np.ndarray:
    if isinstance(v, StringArray):
        return v.data
    if isinstance(v, CellArray):
        raise MatlabError("MATLAB:invalidConversion", "Conversion to string from cell is not possible.")
    return string_of(v)


def _cat_structs(values: list[Any], axis: int) -> Any:
    if not values:
        return empty_double()
    for v in values:
        if not isinstance(v, StructArray):
            raise MatlabError("MATLAB:invalidConversion",
                              f"Conversion to struct from {class_of(v)} is not possible.")
    # struct([]) (0x0, no fields) joins anything, like []
    kept = [v for v in values if not (v.data.shape == (0, 0) and not v.fields)]
    if not kept:
        return values[0]
    values = kept
    fields = values[0].fields
    for v in values[1:]:
        if set(v.fields) != set(fields):
            raise MatlabError("MATLAB:catenate:structFieldBad",
                              "Field names and/or order do not match.")
    return StructArray(list(fields), _join_arrays([v.data for v in values], axis))


def concat_rows(rows: list[list[Any]]) -> Any:
    """``[a b; c d]``: horizontal concatenation of each row, then vertical."""
    row_values = [cat_values(row, 1) for row in rows if row]
    if not row_values:
        return empty_double()
    if len(row_values) == 1:
        return row_values[0]
    return cat_values(row_values, 0)


def cell_rows(rows: list[list[Any]]) -> CellArray:
    """``{a b; c d}``: every item becomes one cell; cells are not flattened."""
    wrapped = [[CellArray.from_list([v], (1, 1)) for v in row] for row in rows]
    result = concat_rows(wrapped)
    if not isinstance(result, CellArray):
        return CellArray.empty()
    return result


def append_row(cur: Any, parts: list[Any]) -> Any:
    """``[cur, parts...]`` for a row (or ``[]``/``''``) ``cur`` the caller owns
    and rows of its own class, written into spare capacity of ``cur``'s
    buffer (doubled when full) so ``s = [s, x]`` in a loop costs O(n) in all.
    None when the operands need the general rules (``cat_values``)."""
    if type(cur) is not np.ndarray or cur.ndim != 2 or cur.dtype == object:
        return None
    dtype = cur.dtype
    empty_start = cur.shape == (0, 0)
    if cur.shape[0] != 1 and not empty_start:
        return None
    width = 0 if empty_start else cur.shape[1]
    total = width
    for part in parts:
        t = type(part)
        if t is np.ndarray:
            if part.dtype != dtype or part.ndim != 2:
                return None
            if part.shape == (0, 0):
                continue
            if part.shape[0] != 1:
                return None
            total += part.shape[1]
        elif t is float and dtype == np.float64:
            total += 1
        else:
            return None
    if total == width:
        return cur
    buffer = cur.base
    if not (type(buffer) is np.ndarray and buffer.ndim == 2 and buffer.shape[0] == 1
            and buffer.dtype == dtype and buffer.shape[1] >= total and not empty_start
            and cur.strides == buffer.strides and is_prefix_view(cur)):
        buffer = np.empty((1, max(total, 2 * width)), dtype=dtype, order="F")
        buffer[0, :width] = cur.reshape(-1)[:width]
    at = width
    row = buffer[0]
    for part in parts:
        if type(part) is float:
            row[at] = part
            at += 1
        elif part.size:
            n = part.shape[1]
            row[at:at + n] = part[0]
            at += n
    out = vector_prefix(buffer, (1, total), cur)
    return canonical(out) if total == 1 else out


def _concat_coerced(values: list, axis: int) -> Any:
    """``[a, b]`` / ``[a; b]`` where a value is a time array: the first time
    array's class and format; the others are converted to it."""
    first = next(v for v in values if getattr(type(v), "concatenates_by_coercion", False))
    parts = []
    for v in values:
        if type(v) is np.ndarray and v.size == 0 and v.shape == (0, 0):
            continue
        parts.append(first.coerce(v))
    return first.like(_join_arrays(parts, axis) if parts else np.zeros((0, 0)))
