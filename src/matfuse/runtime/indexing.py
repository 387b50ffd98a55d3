"""Indexing and indexed assignment (owned by the runtime-core work).

Contract used by the VM:

* ``COLON``: the marker passed for a bare ``:`` index.
* ``end_value(v, k: int, n: int) -> float``: value of ``end`` at position k
  (0-based) of n indices into ``v``.
* ``paren_get(v, idx: list)``: ``v(idx...)``.
* ``paren_set(v, idx: list, rhs)``: returns the new value of ``v`` after
  ``v(idx...) = rhs`` (``v`` is None for a variable that does not exist yet);
  ``rhs`` being the deletion marker ``DELETE`` means ``v(idx) = []``.
* ``brace_get(v, idx: list) -> list``: ``c{idx...}`` as a comma-separated list.
* ``brace_set(v, idx: list, rhs)``: new value after ``c{idx...} = rhs``.
* ``field_get(v, name: str) -> list``: ``s.name`` as a comma-separated list.
* ``field_set(v, name: str, rhs)``: new value after ``s.name = rhs``.

Extras for nested assignment (``s(2).a.b = 1``, ``c{3}.x = 1``): the VM
reads the intermediate with ``lvalue_paren_get``/``lvalue_brace_get``/
``lvalue_field_get`` (which return a default instead of failing when the
element does not exist yet), updates it, and writes it back with the
``*_set`` functions. ``paren_set``/``brace_set``/``field_set`` never mutate
their input unless called with ``inplace=True`` (the VM may pass that when
it knows the old value is not shared).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError, StackFrame
from matfuse.runtime.classdef_arrays import ObjectArray, object_elements, wrap_objects
from matfuse.runtime.classdef_objects import ClassObject
from matfuse.runtime._assign import brace_set, field_set, paren_set
from matfuse.runtime._capacity import append_cell, append_double, append_struct
from matfuse.runtime._containers import (
    CELL,
    STRUCT,
    elements,
    empty_struct_element,
    kind_of,
    wrap,
)
from matfuse.runtime.containers_map import ContainersMap, map_index
from matfuse.runtime._subscripts import (
    COLON,
    DELETE,
    end_value,
    folded_shape,
    is_colon,
    linear_result_shape,
    positions,
)
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    DeviceValue,
    MObject,
    StringArray,
    StructArray,
    canonical,
    char_array,
    empty_double,
    keep_visibility,
)
from matfuse.runtime.device_router import device_router

__all__ = [
    "COLON", "DELETE", "append_cell", "append_double", "append_struct", "end_value",
    "paren_get", "paren_set", "brace_get", "brace_set",
    "field_get", "field_set", "lvalue_paren_get", "lvalue_brace_get", "lvalue_field_get",
]


_F64 = np.dtype(np.float64)
_LOGICAL = np.dtype(np.bool_)


def _scalar_of(arr: np.ndarray, r: int, c: int) -> Any:
    dt = arr.dtype
    if dt is _F64 or dt == _F64 or dt == _LOGICAL:
        return arr.item(r, c)
    return arr[r:r + 1, c:c + 1].copy()


def paren_get(v: Any, idx: list) -> Any:
    """``v(idx...)``."""
    t = type(v)
    n = len(idx)
    # Fast paths: scalar double subscripts into a 2-D array or a scalar.
    if t is np.ndarray:
        shape = v.shape
        if len(shape) == 2:
            if n == 1:
                i = idx[0]
                if type(i) is float and 1.0 <= i <= 9.2e18:
                    k = int(i)
                    rows = shape[0]
                    if k == i and k <= rows * shape[1]:
                        return _scalar_of(v, (k - 1) % rows, (k - 1) // rows)
                elif type(i) is np.ndarray and i.dtype == _LOGICAL and i.shape == shape:
                    return _masked(v, i)
            elif n == 2:
                i, j = idx
                if type(i) is float and type(j) is float and 1.0 <= i <= 9.2e18 \
                        and 1.0 <= j <= 9.2e18:
                    r = int(i)
                    c = int(j)
                    if r == i and c == j and r <= shape[0] and c <= shape[1]:
                        return _scalar_of(v, r - 1, c - 1)
                # A(:, j) and A(i, :): one column or row, copied.
                elif i is COLON and type(j) is float and 1.0 <= j <= shape[1] and j == int(j):
                    c = int(j)
                    return canonical(v[:, c - 1:c].copy(order="F"))
                elif j is COLON and type(i) is float and 1.0 <= i <= shape[0] and i == int(i):
                    r = int(i)
                    return canonical(v[r - 1:r, :].copy(order="F"))
    elif t is float or t is bool:
        if all(type(i) is float and i == 1.0 for i in idx):
            return v
    elif t is StructArray and n == 1 and type(idx[0]) is float and v.data.ndim == 2:
        # s(k): one element, its dict shared (assignments copy it on write).
        i = idx[0]
        k = int(i) if 1.0 <= i <= 9.2e18 else 0
        data = v.data
        if k == i and 0 < k <= data.size:
            rows = data.shape[0]
            one = np.empty((1, 1), dtype=object)
            one[0, 0] = data[(k - 1) % rows, (k - 1) // rows]
            return StructArray(list(v.fields), one)
    if isinstance(v, DeviceValue):
        return keep_visibility(device_router().index(v, idx), v)
    if t is ContainersMap:
        return map_index(v, idx)
    if t is ClassObject or t is ObjectArray:
        return wrap_objects(v.cls, index_elements(object_elements(v), idx)) if idx else v
    if isinstance(v, MObject):
        getter = getattr(v, "object_paren_get", None)
        if getter is not None:
            return getter(idx)
    kind = kind_of(v)
    data = elements(v, kind)
    if n == 0:
        return v
    return wrap(kind, index_elements(data, idx), v)


def _masked(v: np.ndarray, mask: np.ndarray) -> Any:
    """``v(mask)`` for a logical mask of ``v``'s own 2-D shape: a row for a
    row vector, else a column, in column-major order."""
    if v.shape[0] == 1:
        return canonical(v[mask].reshape(1, -1))
    if v.shape[1] == 1:
        return canonical(v[mask].reshape(-1, 1))
    return canonical(v.T[mask.T].reshape(-1, 1))


def index_elements(data: np.ndarray, idx: list) -> np.ndarray:
    """``data(idx...)`` on an element array (any dtype), MATLAB shapes."""
    n = len(idx)
    if n == 1:
        sub = idx[0]
        count = data.size
        if is_colon(sub):
            return data.reshape((count, 1), order="F").copy()
        pos, ishape = positions(sub, count, 0, 1, True)
        flat = data.reshape(-1, order="F")
        values = flat[pos]
        return values.reshape(linear_result_shape(data.shape, ishape, pos.size), order="F")
    shape = folded_shape(data.shape, n)
    subs = []
    lengths = []
    simple = True
    for k, sub in enumerate(idx):
        if is_colon(sub):
            subs.append(slice(None))
            lengths.append(shape[k])
        else:
            pos, _ishape = positions(sub, shape[k], k, n, True)
            run = _as_run(pos)
            subs.append(pos if run is None else run)
            lengths.append(pos.size)
            simple = simple and run is not None
    view = data.reshape(shape, order="F") if shape != data.shape else data
    if simple:
        # colons and ascending runs (A(1:m, :)): a slice, copied in the
        # source's memory order, instead of a gather
        result = view[tuple(subs)].copy(order="K")
    else:
        arrays = [np.arange(shape[k])[s] if type(s) is slice else s for k, s in enumerate(subs)]
        result = view[np.ix_(*arrays)]
    return _normalized(result)


def _as_run(pos: np.ndarray) -> slice | None:
    """``pos`` as a slice when it is a non-empty run of consecutive
    ascending positions (``2:10``), else None."""
    count = pos.size
    if count == 0 or pos[-1] - pos[0] != count - 1:
        return None
    if count > 2 and not bool(np.all(np.diff(pos) == 1)):
        return None
    return slice(int(pos[0]), int(pos[-1]) + 1)


def _normalized(arr: np.ndarray) -> np.ndarray:
    if arr.ndim > 2 and arr.shape[-1] == 1:
        dims = list(arr.shape)
        while len(dims) > 2 and dims[-1] == 1:
            dims.pop()
        return arr.reshape(dims, order="F")
    return arr


def matrix_slot(data: np.ndarray, k: float) -> tuple[int, int] | None:
    """(row, column) of linear index ``k`` (a float) in the 2-D array
    ``data``, or None when ``k`` is not a whole number in 1..numel (or
    ``data`` is N-D): the element reads and writes of the interpreter's
    fast paths, which leave every other case to the general path."""
    if data.ndim != 2 or not 1.0 <= k <= data.size or not k.is_integer():
        return None
    p = int(k) - 1
    rows = data.shape[0]
    return p % rows, p // rows


def brace_get(v: Any, idx: list) -> list:
    """``c{idx...}`` as a comma-separated list (a Python list of values)."""
    if type(v) is CellArray:
        if len(idx) == 1 and type(idx[0]) is float:
            i = idx[0]
            k = int(i) if 1.0 <= i <= 9.2e18 else 0
            if k == i and 0 < k <= v.data.size:
                rows = v.data.shape[0]
                return [v.data[(k - 1) % rows, (k - 1) // rows]] if v.data.ndim == 2 \
                    else [v.data.reshape(-1, order="F")[k - 1]]
        selected = index_elements(v.data, idx) if idx else v.data
        return list(selected.reshape(-1, order="F"))
    if type(v) is StringArray:
        selected = index_elements(v.data, idx) if idx else v.data
        return [_string_text(s) for s in selected.reshape(-1, order="F")]
    raise MatlabError("MATLAB:cellRefFromNonCell",
                      "Brace indexing is not supported for variables of this type.")


def _string_text(s: Any) -> Any:
    if s is None:
        raise MatlabError("MATLAB:string:MissingNotConvertible",
                          "Unable to convert <missing> to character vector.")
    return char_array(s) if s else np.zeros((0, 0), dtype=CHAR_DTYPE)


def field_get(v: Any, name: str) -> list:
    """``s.name`` as a comma-separated list; objects read properties."""
    t = type(v)
    if t is StructArray:
        data = v.data
        if data.size == 1:
            # The element maps every field: one dict lookup, not a scan of
            # the field list (structs with thousands of dynamic fields).
            element = data.reshape(-1)[0]
            if name in element:
                return [element[name]]
        if name not in v.fields:
            raise MatlabError("MATLAB:nonExistentField", f'Unrecognized field name "{name}".')
        return [e[name] for e in data.reshape(-1, order="F")]
    if isinstance(v, MatlabError):
        return [exception_property(v, name)]
    if t is ObjectArray:
        return v.property_values(name)
    if isinstance(v, MObject):
        return [v.get_property(name)]
    raise MatlabError("MATLAB:structRefFromNonStruct",
                      "Dot indexing is not supported for variables of this type.")


def exception_property(err: MatlabError, name: str) -> Any:
    """``err.message``, ``err.identifier``, ``err.stack``, ``err.cause``."""
    if name == "message":
        return char_array(err.message)
    if name == "identifier":
        return char_array(err.identifier)
    if name == "stack":
        return _stack_struct(err.stack)
    if name == "cause":
        return CellArray.from_list(list(err.cause), (len(err.cause), 1)) if err.cause \
            else CellArray(np.empty((0, 1), dtype=object))
    if name == "Correction":
        return empty_double()
    raise MatlabError("MATLAB:noSuchMethodOrField",
                      f"Unrecognized method, property, or field '{name}' for class 'MException'.")


def _stack_struct(frames: list[StackFrame]) -> StructArray:
    fields = ["file", "name", "line"]
    data = np.empty((len(frames), 1), dtype=object)
    for i, f in enumerate(frames):
        data[i, 0] = {"file": char_array(f.file or ""), "name": char_array(f.name),
                      "line": float(f.line)}
    return StructArray(fields, data)


# ----------------------------------------------------- nested-assignment reads
def lvalue_paren_get(v: Any, idx: list) -> Any:
    """``v(idx)`` for the inner step of ``v(idx).f = x``: an element that does
    not exist yet reads as a struct with empty fields (or ``None``)."""
    if v is None:
        return None
    kind = kind_of(v)
    try:
        return paren_get(v, idx)
    except MatlabError as err:
        if err.identifier != "MATLAB:badsubscript" or "exceed" not in err.message:
            raise
    if kind == STRUCT:
        return StructArray.scalar(empty_struct_element(v.fields))
    if kind == CELL:
        return CellArray.from_list([empty_double()], (1, 1))
    return None


def lvalue_brace_get(v: Any, idx: list) -> Any:
    """``c{idx}`` for the inner step of ``c{idx}.f = x``; ``None`` when the
    cell element does not exist yet."""
    if v is None or (type(v) is np.ndarray and v.size == 0):
        return None
    try:
        values = brace_get(v, idx)
    except MatlabError as err:
        if err.identifier != "MATLAB:badsubscript" or "exceed" not in err.message:
            raise
        return None
    if len(values) != 1:
        raise MatlabError("MATLAB:index:expected_one_output_from_expression",
                          f"Expected one output from a curly brace or dot indexing expression, "
                          f"but there were {len(values)} results.")
    return values[0]


def lvalue_field_get(v: Any, name: str) -> Any:
    """``s.name`` for the inner step of ``s.name.f = x``; ``None`` when ``s``
    or its field does not exist yet."""
    if v is None or (type(v) is np.ndarray and v.size == 0):
        return None
    if type(v) is StructArray and name not in v.fields:
        return None
    values = field_get(v, name)
    if len(values) != 1:
        raise MatlabError("MATLAB:index:expected_one_output_from_expression",
                          f"Expected one output from a curly brace or dot indexing expression, "
                          f"but there were {len(values)} results.")
    return values[0]
