"""Indexed assignment and deletion: ``x(idx) = v``, ``x(idx) = []``,
``c{idx} = v``, ``s.name = v``.

Growth pads with MATLAB's fill values; the right side converts to the left
side's class (a ``[]`` left side takes the right side's class);
complex right sides make the result complex. Inputs are copied, never
mutated, unless ``inplace=True``.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.classdef_arrays import (
    OBJECT_TYPES,
    object_assignment_cells,
    objects_from_cells,
)
from matfuse.runtime.classdef_objects import ClassObject
from matfuse.runtime._classrules import assignment_class, convert
from matfuse.runtime._containers import (
    ARRAY,
    CELL,
    OBJECT,
    STRING,
    STRUCT,
    elements,
    empty_like_kind,
    empty_struct_element,
    filled,
    is_empty_double,
    kind_of,
    wrap,
)
from matfuse.runtime._capacity import (
    append_cell,
    append_double,
    append_row_values,
    is_prefix_view,
    vector_prefix,
)
from matfuse.runtime._deletion import delete_elements
from matfuse.runtime.containers_map import ContainersMap, map_assign
from matfuse.runtime._elementwise import string_of
from matfuse.runtime._subscripts import DELETE, folded_shape, is_colon, positions
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    DeviceValue,
    MObject,
    StringArray,
    StructArray,
    class_of,
    empty_double,
    canonical,
    keep_visibility,
    normalize_shape,
)
from matfuse.runtime.device_router import device_router


_F64 = np.dtype(np.float64)
_LOGICAL = np.dtype(np.bool_)


def _numel_mismatch() -> MatlabError:
    return MatlabError("MATLAB:subsassignnumelmismatch",
                       "Unable to perform assignment because the left and right sides have "
                       "different numbers of elements.")


def _dims_text(shape: tuple[int, ...] | list[int]) -> str:
    return "-by-".join(str(d) for d in shape)


def paren_set(v: Any, idx: list, rhs: Any, inplace: bool = False) -> Any:
    """New value of ``v`` after ``v(idx...) = rhs`` (``rhs`` DELETE: deletion)."""
    # Fast path: x(i) = s or x(i, j) = s, a double scalar into a double
    # matrix, in range (the interpreter's fill loops).
    if type(v) is np.ndarray and type(rhs) is float:
        shape = v.shape
        if len(shape) == 2 and v.dtype == _F64:
            n = len(idx)
            if n == 1:
                i = idx[0]
                if type(i) is float and 1.0 <= i <= 9.2e18:
                    k = int(i)
                    rows = shape[0]
                    if k == i and k <= rows * shape[1]:
                        out = v if inplace and v.flags.writeable else v.copy(order="K")
                        out[(k - 1) % rows, (k - 1) // rows] = rhs
                        return out
                    if k == i and inplace and k == rows * shape[1] + 1:
                        grown = append_double(v, rhs)
                        if grown is not None:
                            return grown if k > 1 else rhs
                        return canonical(_append_element(v, rhs, ARRAY))
                elif type(i) is np.ndarray and i.dtype == _LOGICAL and i.shape == shape:
                    # x(mask) = s with a mask of x's own shape.
                    out = v if inplace and v.flags.writeable else v.copy(order="K")
                    out[i] = rhs
                    return out
            elif n == 2:
                i, j = idx
                if type(i) is float and type(j) is float and 1.0 <= i <= 9.2e18 \
                        and 1.0 <= j <= 9.2e18:
                    r = int(i)
                    c = int(j)
                    if r == i and c == j and r <= shape[0] and c <= shape[1]:
                        out = v if inplace and v.flags.writeable else v.copy(order="K")
                        out[r - 1, c - 1] = rhs
                        return out
    elif inplace and type(v) is np.ndarray and type(rhs) is np.ndarray and len(idx) == 2 \
            and type(idx[0]) is float and is_colon(idx[1]):
        grown = append_row_values(v, idx[0], rhs)
        if grown is not None:
            return grown
    if type(v) is ContainersMap:
        return map_assign(v, idx, empty_double() if rhs is DELETE else rhs)
    # A gpuArray on either side makes the result a gpuArray (as in MATLAB).
    if isinstance(v, DeviceValue) or isinstance(rhs, DeviceValue):
        return keep_visibility(device_router().assign(v, idx, rhs, inplace=inplace), v, rhs)
    if type(v) in OBJECT_TYPES or type(rhs) in OBJECT_TYPES:
        # Object arrays assign their element arrays as cell arrays.
        cls, cells, cell_rhs = object_assignment_cells(v, rhs)
        return objects_from_cells(cls, paren_set(cells, idx, cell_rhs))
    # Object arrays (``F(k) = parfeval(...)``): the object class assigns.
    if isinstance(rhs, MObject) or isinstance(v, MObject):
        assign = getattr(rhs if isinstance(rhs, MObject) else v, "object_paren_assign", None)
        if assign is not None:
            return assign(v, idx, rhs)
    # MATLAB deletes for any 0x0 double right side, not only a literal [],
    # and for the 0x0 char '' (the s(s == ' ') = '' idiom).
    if rhs is DELETE or is_empty_double(rhs) or (
            type(rhs) is np.ndarray and rhs.shape == (0, 0) and rhs.dtype == CHAR_DTYPE):
        if v is None:
            return empty_double()
        return delete_elements(v, idx)
    return _assign(v, idx, rhs, inplace)


def _target(v: Any, rhs: Any) -> tuple[Any, str, np.ndarray, np.dtype | None]:
    """Decide the result kind and element dtype; returns the (possibly
    replaced) left value, its kind, element data and converted rhs data."""
    rkind = kind_of(rhs)
    if v is None or (is_empty_double(v) and rkind != ARRAY):
        v = empty_like_kind(rkind, rhs)
    lkind = kind_of(v)
    if lkind == ARRAY:
        if rkind != ARRAY:
            raise MatlabError("MATLAB:invalidConversion",
                              f"Conversion to {class_of(v)} from {class_of(rhs)} is not possible.")
        rdata = elements(rhs, ARRAY)
        ldata = elements(v, ARRAY)
        lcls, rcls = class_of(ldata), class_of(rdata)
        cls = rcls if (ldata.size == 0 and lcls == "double") else assignment_class(lcls, rcls)
        make_complex = rdata.dtype.kind == "c" or ldata.dtype.kind == "c"
        if cls not in ("double", "single"):
            make_complex = False
        if lcls != cls or (make_complex and ldata.dtype.kind != "c"):
            ldata = _as_class(ldata, cls, make_complex)
        if class_of(rdata) != cls or rdata.dtype != ldata.dtype:
            rdata = _as_class(rdata, cls, make_complex)
        return v, lkind, ldata, rdata
    if lkind == CELL:
        if rkind != CELL:
            raise MatlabError("MATLAB:invalidConversion",
                              f"Conversion to cell from {class_of(rhs)} is not possible.")
        return v, lkind, v.data, rhs.data
    if lkind == STRUCT:
        if rkind != STRUCT:
            raise MatlabError("MATLAB:invalidConversion",
                              f"Conversion to struct from {class_of(rhs)} is not possible.")
        return v, lkind, v.data, rhs.data
    if lkind == STRING:
        if rkind == CELL:
            raise MatlabError("MATLAB:invalidConversion",
                              "Conversion to string from cell is not possible.")
        return v, lkind, v.data, string_of(rhs)
    if lkind == OBJECT and hasattr(v, "element_array") and hasattr(rhs, "element_array"):
        return v, lkind, v.element_array(), rhs.element_array()
    raise MatlabError("MATLAB:index:assignToObject",
                      f"Indexed assignment is not supported for values of class '{class_of(v)}'.")


def _as_class(arr: np.ndarray, cls: str, make_complex: bool) -> np.ndarray:
    out = convert(arr, cls) if class_of(arr) != cls else arr
    if make_complex and out.dtype.kind != "c":
        out = out.astype(np.complex64 if cls == "single" else np.complex128)
    return out


def _merge_struct_fields(v: StructArray, rhs: StructArray, ldata: np.ndarray,
                         rdata: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Structs assigned into a struct array share one field list (new fields
    are added to every element, holding ``[]``)."""
    fields = list(v.fields)
    for f in rhs.fields:
        if f not in fields:
            fields.append(f)
    if fields != list(v.fields):
        ldata = _with_fields(ldata, fields)
    if set(rhs.fields) != set(fields):
        rdata = _with_fields(rdata, fields)
    return fields, ldata, rdata


def _with_fields(data: np.ndarray, fields: list[str]) -> np.ndarray:
    out = np.empty(data.shape, dtype=object, order="F")
    src = data.reshape(-1, order="F")
    dst = out.reshape(-1, order="F")
    for i in range(src.size):
        element = empty_struct_element(fields)
        element.update(src[i])
        dst[i] = element
    return out.reshape(data.shape, order="F") if out.ndim > 1 else out


def _assign(v: Any, idx: list, rhs: Any, inplace: bool) -> Any:
    v, kind, ldata, rdata = _target(v, rhs)
    fields = None
    if kind == STRUCT:
        fields, ldata, rdata = _merge_struct_fields(v, rhs, ldata, rdata)
        template = StructArray(fields, ldata)
    else:
        template = v
    if not idx:
        raise MatlabError("MATLAB:index:emptyIndex", "Indexed assignment requires an index.")
    if len(idx) == 1:
        result = _assign_linear(ldata, idx[0], rdata, kind, fields, inplace)
    else:
        result = _assign_subscripts(ldata, idx, rdata, kind, fields, inplace)
    return wrap(kind, result, template)


def _writable(data: np.ndarray, inplace: bool) -> np.ndarray:
    """A column-major array safe to write (the input itself only if inplace)."""
    if inplace and (data.flags.f_contiguous or data.ndim < 2) and data.flags.writeable:
        return data
    return np.array(data, order="F", copy=True)


def _assign_linear(ldata: np.ndarray, sub: Any, rdata: np.ndarray, kind: str,
                   fields: list[str] | None, inplace: bool) -> np.ndarray:
    count = ldata.size
    if is_colon(sub):
        if rdata.size == 1:
            out = _writable(ldata, inplace)
            out[...] = rdata.reshape(-1)[0] if kind == ARRAY else _broadcast_object(rdata, count)
            return out
        if rdata.size != count:
            raise _numel_mismatch()
        out = _writable(ldata, inplace)
        out.reshape(-1, order="F")[:] = rdata.reshape(-1, order="F")
        return out
    pos, _ishape = positions(sub, count, 0, 1, False)
    if rdata.size != 1 and rdata.size != pos.size:
        raise _numel_mismatch()
    needed = int(pos.max()) + 1 if pos.size else 0
    if needed > count:
        out = _grow_linear(ldata, needed, kind, fields, inplace)
    else:
        out = _writable(ldata, inplace)
    flat = out.reshape(-1, order="F")
    if rdata.size == 1:
        flat[pos] = rdata.reshape(-1)[0] if kind == ARRAY else _broadcast_object(rdata, pos.size)
    else:
        flat[pos] = rdata.reshape(-1, order="F")
    return out


def _broadcast_object(rdata: np.ndarray, count: int) -> np.ndarray:
    """One object element repeated (each copy independent for structs)."""
    element = rdata.reshape(-1)[0]
    out = np.empty(count, dtype=object)
    for i in range(count):
        out[i] = dict(element) if isinstance(element, dict) else element
    return out


def _grow_linear(ldata: np.ndarray, needed: int, kind: str,
                 fields: list[str] | None, inplace: bool = False) -> np.ndarray:
    """``ldata`` grown to ``needed`` elements along its vector direction.

    In place (the caller owns ``ldata``), a vector grows into spare capacity
    of its buffer, and a new buffer gets room for twice the elements, so a
    loop appending n elements costs O(n) in all (amortized doubling)."""
    shape = ldata.shape
    if ldata.size == 0 and shape == (0, 0) or (len(shape) == 2 and shape[0] == 1):
        new_shape = (1, needed)
    elif len(shape) == 2 and shape[1] == 1:
        new_shape = (needed, 1)
    elif ldata.size == 0:
        new_shape = (1, needed)
    else:
        raise MatlabError("MATLAB:indexOutOfBounds",
                          "Attempt to grow array along ambiguous dimension.")
    if inplace:
        out = _extend_in_buffer(ldata, new_shape, kind, fields)
        if out is not None:
            return out
        capacity = max(needed, 2 * ldata.size)
        buffer_shape = (1, capacity) if new_shape[0] == 1 else (capacity, 1)
        buffer = np.zeros(buffer_shape, dtype=ldata.dtype, order="F") if kind == ARRAY \
            else np.empty(buffer_shape, dtype=object, order="F")
        out = vector_prefix(buffer, new_shape)
        flat = out.reshape(-1, order="F")
        flat[:ldata.size] = ldata.reshape(-1, order="F")
        _fill(flat[ldata.size:], kind, fields)
        return out
    out = filled(kind, new_shape, ldata.dtype, fields)
    out.reshape(-1, order="F")[:ldata.size] = ldata.reshape(-1, order="F")
    return out


def _append_element(data: np.ndarray, value: Any, kind: str) -> np.ndarray:
    """``data(end+1) = value`` on an owned 2-D element array (capacity growth)."""
    count = data.size
    out = _grow_linear(data, count + 1, kind, None, True)
    if out.shape[0] == 1:
        out[0, count] = value
    else:
        out[count, 0] = value
    return out


def _extend_in_buffer(ldata: np.ndarray, new_shape: tuple[int, ...], kind: str,
                      fields: list[str] | None) -> np.ndarray | None:
    """``ldata`` (a prefix view of a larger vector buffer) widened to
    ``new_shape`` within that buffer, new elements filled; None when the
    buffer has no room or ``ldata`` is not such a prefix."""
    base = ldata.base
    if type(base) is not np.ndarray or base.ndim != 2 or ldata.ndim != 2 \
            or base.dtype != ldata.dtype or ldata.size == 0:
        return None
    axis = 1 if new_shape[0] == 1 else 0
    if base.shape[1 - axis] != 1 or ldata.shape[1 - axis] != 1 \
            or base.shape[axis] < new_shape[axis] or ldata.strides != base.strides \
            or not is_prefix_view(ldata):
        return None
    out = vector_prefix(base, new_shape, ldata)
    _fill(out.reshape(-1, order="F")[ldata.size:], kind, fields)
    return out


def _fill(flat: np.ndarray, kind: str, fields: list[str] | None) -> None:
    """Write MATLAB's fill value into every element of the 1-D view ``flat``."""
    if kind == ARRAY:
        flat[...] = "\0" if flat.dtype.kind == "U" else 0
    elif kind == CELL:
        for i in range(flat.size):
            flat[i] = empty_double()
    elif kind == STRUCT:
        for i in range(flat.size):
            flat[i] = empty_struct_element(fields or [])
    else:
        flat[...] = None


def _assign_subscripts(ldata: np.ndarray, idx: list, rdata: np.ndarray, kind: str,
                       fields: list[str] | None, inplace: bool) -> np.ndarray:
    n = len(idx)
    old_shape = ldata.shape
    shape = folded_shape(old_shape, n)
    # Right-side dims not yet matched by a subscript; a colon into an empty
    # array takes its length from the next of them (x = []; x(:,1) = 1:3).
    rhs_dims = [d for d in rdata.shape if d != 1] if rdata.size != 1 else []
    subs: list[np.ndarray] = []
    new_shape = list(shape)
    for k, sub in enumerate(idx):
        if is_colon(sub):
            extent = shape[k]
            if ldata.size == 0:
                extent = rhs_dims.pop(0) if rhs_dims else max(extent, 1)
                new_shape[k] = max(extent, shape[k])
            elif rhs_dims and extent != 1 and rhs_dims[0] == extent:
                rhs_dims.pop(0)
            subs.append(np.arange(extent, dtype=np.intp))
        else:
            pos, _ishape = positions(sub, shape[k], k, n, False)
            if pos.size:
                new_shape[k] = max(new_shape[k], int(pos.max()) + 1)
            if rhs_dims and pos.size != 1 and rhs_dims[0] == pos.size:
                rhs_dims.pop(0)
            subs.append(pos)
    counts = [s.size for s in subs]
    if rdata.size != 1:
        if [c for c in counts if c != 1] != [d for d in rdata.shape if d != 1]:
            raise MatlabError(
                "MATLAB:subsassigndimmismatch",
                f"Unable to perform assignment because the size of the left side is "
                f"{_dims_text(counts)} and the size of the right side is {_dims_text(rdata.shape)}.")
    grown = tuple(new_shape) != shape
    if grown:
        if n < len(old_shape) and ldata.size:
            raise MatlabError("MATLAB:indexOutOfBounds",
                              "Attempt to grow array along ambiguous dimension.")
        result = filled(kind, tuple(new_shape), ldata.dtype, fields)
        region = tuple(slice(0, d) for d in shape)
        result[region] = ldata.reshape(shape, order="F")
        work = result
    else:
        # Write through a column-major view; return the base array itself so
        # the VM's in-place check (``base is None``) keeps holding.
        result = _writable(ldata, inplace)
        work = result.reshape(shape, order="F") if shape != result.shape else result
    target = np.ix_(*subs)
    if rdata.size == 1:
        work[target] = rdata.reshape(-1)[0] if kind == ARRAY else \
            _broadcast_object(rdata, int(np.prod(counts))).reshape(counts, order="F")
    else:
        work[target] = rdata.reshape(counts, order="F")
    if not grown:
        return result
    final = normalize_shape(result.shape)
    return result if final == result.shape else result.reshape(final, order="F")


# ----------------------------------------------------------------- braces
def brace_set(v: Any, idx: list, rhs: Any, inplace: bool = False) -> Any:
    """New value after ``c{idx...} = rhs``."""
    if v is None or is_empty_double(v):
        v = CellArray(np.empty((0, 0), dtype=object))
    if type(v) is StringArray:
        return paren_set(v, idx, rhs, inplace)
    if type(v) is not CellArray:
        raise MatlabError("MATLAB:cellAssToNonCell",
                          "Unable to perform assignment because brace indexing is not supported "
                          "for variables of this type.")
    if len(idx) == 1 and type(idx[0]) is float and v.data.ndim == 2:
        # c{k} = rhs with one in-range position, or c{end+1} = rhs in place.
        i = idx[0]
        k = int(i) if 1.0 <= i <= 9.2e18 else 0
        data = v.data
        count = data.size
        if k == i and 0 < k <= count:
            out = data if inplace and data.flags.writeable else data.copy(order="K")
            rows = data.shape[0]
            out[(k - 1) % rows, (k - 1) // rows] = rhs
            return v if out is data else CellArray(out)
        if k == i and inplace and k == count + 1:
            grown = append_cell(v, rhs)
            return grown if grown is not None else CellArray(_append_element(data, rhs, CELL))
    if _target_count(v.data.shape, idx) != 1:
        raise MatlabError("MATLAB:needMoreRhsOutputs",
                          "Insufficient number of outputs from right hand side of equal sign "
                          "to satisfy assignment.")
    cell = CellArray.from_list([rhs], (1, 1))
    return _assign(v, idx, cell, inplace)


def _target_count(shape: tuple[int, ...], idx: list) -> int:
    """How many elements ``x(idx...)`` names (a colon counts its extent)."""
    n = len(idx)
    folded = folded_shape(shape, n) if n > 1 else (int(np.prod(shape)),)
    count = 1
    for k, sub in enumerate(idx):
        if is_colon(sub):
            count *= folded[k]
        elif type(sub) is not float:
            count *= positions(sub, folded[k], k, n, False)[0].size
    return count


# ----------------------------------------------------------------- fields
def field_set(v: Any, name: str, rhs: Any, inplace: bool = False) -> Any:
    """New value after ``s.name = rhs``."""
    if inplace and type(v) is StructArray and v.data.size == 1:
        element = v.data.item(0)
        if sys.getrefcount(element) <= 3:
            # element: the array slot, this local, the argument. The caller
            # owns ``v`` and its data; an element nobody else holds is updated.
            if name not in element:
                # fields: the wrapper's slot and the argument, unless shared.
                if sys.getrefcount(v.fields) <= 2:
                    v.fields.append(name)
                else:
                    v.fields = v.fields + [name]
            element[name] = rhs
            return v
    if v is None or is_empty_double(v):
        return StructArray.scalar({name: rhs})
    if type(v) is ClassObject:
        return v.set_property(name, rhs)
    if isinstance(v, MObject) and hasattr(v, "set_property"):
        result = v.set_property(name, rhs)     # objects with settable properties
        return v if result is None else result  # handle objects change in place
    if type(v) is not StructArray:
        raise MatlabError("MATLAB:dotAssignToNonStruct" if kind_of(v) != OBJECT else
                          "MATLAB:noPublicFieldForClass",
                          "Unable to perform assignment because dot indexing is not supported "
                          "for variables of this type." if kind_of(v) != OBJECT else
                          f"Unable to set the '{name}' property of class '{class_of(v)}'.")
    data = v.data
    if data.size == 0:
        fields = list(v.fields)
        element = empty_struct_element(fields)
        element[name] = rhs
        if name not in fields:
            fields.append(name)
        out = np.empty((1, 1), dtype=object)
        out[0, 0] = element
        return StructArray(fields, out)
    if data.size != 1:
        raise MatlabError("MATLAB:index:expected_one_output_from_expression",
                          "Scalar structure required for this assignment.")
    element = data.reshape(-1)[0]
    # (An unshared element was updated in place above.)
    fields = v.fields if name in element else v.fields + [name]
    # Element dicts may be shared with other struct values (t = s(2)): copied.
    new_element = dict(element)
    new_element[name] = rhs
    out = np.empty(data.shape, dtype=object)
    out.reshape(-1)[0] = new_element
    return StructArray(list(fields), out)
