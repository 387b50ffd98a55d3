"""Uniform access to the element array behind each indexable value.

Indexing works on one ndarray whatever the value: numeric/char/logical
arrays are themselves, cells/structs/strings expose ``.data`` (object
arrays), scalars become 1x1 arrays. ``wrap`` turns an indexed result back
into a value of the same kind.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.values import (
    CellArray,
    StringArray,
    StructArray,
    canonical,
    empty_double,
    to_array,
)

ARRAY = "array"
CELL = "cell"
STRUCT = "struct"
STRING = "string"
OBJECT = "object"


def kind_of(v: Any) -> str:
    t = type(v)
    if t is np.ndarray or t is float or t is bool or t is complex:
        return ARRAY
    if t is CellArray:
        return CELL
    if t is StructArray:
        return STRUCT
    if t is StringArray:
        return STRING
    return OBJECT


def elements(v: Any, kind: str) -> np.ndarray:
    """The element ndarray of ``v`` (not copied)."""
    if kind == ARRAY:
        return to_array(v)
    if kind == OBJECT:
        if hasattr(v, "element_array"):       # object arrays (graphics handles)
            return v.element_array()
        data = np.empty((1, 1), dtype=object)
        data[0, 0] = v
        return data
    return v.data


def wrap(kind: str, data: np.ndarray, template: Any) -> Any:
    """A value of ``template``'s kind holding ``data``."""
    if kind == ARRAY:
        return canonical(data)
    if kind == CELL:
        return CellArray(data)
    if kind == STRUCT:
        return StructArray(list(template.fields), data)
    if kind == STRING:
        return StringArray(data)
    if hasattr(template, "from_elements"):
        return template.from_elements(data)
    if data.size == 1:
        return data.reshape(-1)[0]
    raise MatlabError("MATLAB:index:objectArray",
                      "Arrays of this class of object are not supported.")


def empty_struct_element(fields: list[str]) -> dict[str, Any]:
    return {f: empty_double() for f in fields}


def filled(kind: str, shape: tuple[int, ...], dtype: np.dtype | None,
           fields: list[str] | None = None) -> np.ndarray:
    """A new element array of ``shape`` holding MATLAB's fill value: 0,
    char(0), false, ``[]`` cells, structs with ``[]`` fields, ``<missing>``."""
    if kind == ARRAY:
        return np.zeros(shape, dtype=dtype, order="F")
    out = np.empty(shape, dtype=object, order="F")
    flat = out.reshape(-1, order="F")
    if kind == CELL:
        for i in range(flat.size):
            flat[i] = empty_double()
    elif kind == STRUCT:
        for i in range(flat.size):
            flat[i] = empty_struct_element(fields or [])
    # Strings: None is <missing>; object arrays start as None already.
    return out


def empty_like_kind(kind: str, rhs: Any) -> Any:
    """The value a missing variable (or ``[]``) becomes before ``x(i) = rhs``."""
    if kind == CELL:
        return CellArray(np.empty((0, 0), dtype=object))
    if kind == STRUCT:
        return StructArray(list(rhs.fields), np.empty((0, 0), dtype=object))
    if kind == STRING:
        return StringArray(np.empty((0, 0), dtype=object))
    arr = to_array(rhs)
    return np.zeros((0, 0), dtype=arr.dtype)


def is_empty_double(v: Any) -> bool:
    """``[]``: a 0x0 double array (what ``x = []`` holds)."""
    return type(v) is np.ndarray and v.shape == (0, 0) and v.dtype == np.float64

