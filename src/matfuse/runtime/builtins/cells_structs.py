"""Cell and struct builtins: construction, conversion and field access.

The function-applying builtins (cellfun, arrayfun, structfun) live in
``function_apply.py``.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text, parse_size_args
from matfuse.runtime.builtins._text_args import make_char, text_arg, whole_number
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    DeviceValue,
    MObject,
    StructArray,
    canonical,
    class_of,
    is_char,
    normalize_shape,
    to_array,
    to_str,
)

_IDENT = re.compile(r"^[A-Za-z]\w*$", re.ASCII)


# ------------------------------------------------------------------- cells
@builtin("cell", category="cells", nargin=(0, None))
def cell(*dims: Any) -> Any:
    """Cell array of empty matrices: cell(n), cell(m, n, ...), cell([m n])."""
    for d in dims:
        if not (type(d) in (float, bool) or (type(d) is np.ndarray and d.dtype.kind in "fiub")):
            raise MatlabError("MATLAB:cell:invalidInput" if not is_char(d) else "MATLAB:cell:NonNumericInput",
                              "Size inputs must be numeric.")
    return CellArray.empty(parse_size_args(list(dims), "cell", 8))


@builtin("num2cell", category="cells", nargin=(1, 2))
def num2cell(value: Any, dims: Any = None) -> Any:
    """Cell array holding each element of an array in its own cell."""
    if isinstance(value, DeviceValue):
        value = value.gather()
    if isinstance(value, CellArray):
        items = [CellArray.from_list([v], (1, 1)) for v in value.data.reshape(-1, order="F")]
        return CellArray.from_list(items, value.shape)
    if isinstance(value, StructArray):
        items = [StructArray(list(value.fields), _one(d)) for d in value.data.reshape(-1, order="F")]
        return CellArray.from_list(items, value.shape)
    arr = to_array(value)
    if dims is not None:
        return _num2cell_dims(arr, dims)
    flat = arr.reshape(-1, order="F")
    if flat.dtype == np.float64 or flat.dtype == np.bool_:
        # Double and logical scalars are Python floats and bools (the value
        # model): one conversion for the whole array.
        return CellArray.from_list(flat.tolist(), arr.shape)
    items = [canonical(flat[i:i + 1].reshape(1, 1)) for i in range(flat.size)]
    return CellArray.from_list(items, arr.shape)


def _one(mapping: dict) -> np.ndarray:
    data = np.empty((1, 1), dtype=object)
    data[0, 0] = dict(mapping)
    return data


def _num2cell_dims(arr: np.ndarray, dims: Any) -> CellArray:
    if is_char(dims) or type(dims) not in (float, np.ndarray) or to_array(dims).size == 0:
        raise MatlabError("MATLAB:num2cell:InvalidDimension", "Dimensions must be positive integers.")
    collapse = sorted(whole_number(d, "num2cell", "Dimension", 1) - 1
                      for d in to_array(dims).reshape(-1).tolist())
    # Dimensions past ndims are singletons: collapsing them changes nothing.
    collapse = [c for c in collapse if c < arr.ndim]
    ndim = arr.ndim
    full = arr
    out_shape = tuple(1 if i in collapse else full.shape[i] for i in range(ndim))
    out = np.empty(out_shape, dtype=object)
    for idx in np.ndindex(*out_shape):
        # Each block keeps its place in A's dimensions (num2cell(A, 2) holds rows).
        sel = tuple(slice(None) if i in collapse else slice(idx[i], idx[i] + 1) for i in range(ndim))
        block = full[sel]
        out[idx] = canonical(block.reshape(normalize_shape(block.shape)))

    return CellArray(out.reshape(normalize_shape(out_shape), order="F"))


def _concat_rows(blocks: list[np.ndarray], axis: int) -> np.ndarray:
    blocks = [b for b in blocks if b.size or b.shape[1 - axis] != 0 or len(blocks) == 1]
    if not blocks:
        return np.zeros((0, 0))
    kinds = {b.dtype for b in blocks}
    if len(kinds) > 1:
        if CHAR_DTYPE in kinds:
            blocks = [b if b.dtype == CHAR_DTYPE else
                      np.asarray(b, dtype=np.int64).astype(np.uint32).view(CHAR_DTYPE) for b in blocks]
        else:
            target = np.result_type(*[b.dtype for b in blocks if b.dtype != np.bool_] or [np.float64])
            blocks = [b.astype(target) for b in blocks]
    try:
        return np.concatenate(blocks, axis=axis)
    except ValueError:
        raise MatlabError("MATLAB:catenate:dimensionMismatch",
                          "Dimensions of arrays being concatenated are not consistent.") from None


@builtin("cell2mat", category="cells", nargin=(1, 1))
def cell2mat(c: Any) -> Any:
    """Concatenate the contents of a cell array into one array."""
    if not isinstance(c, CellArray):
        raise MatlabError("MATLAB:cell2mat:InvalidInputType", "Input must be a cell array.")
    if c.data.size == 0:
        return np.zeros((0, 0))
    data = c.data if c.data.ndim == 2 else c.data.reshape(c.data.shape[0], -1, order="F")
    first = data.reshape(-1)[0]
    if isinstance(first, (CellArray, StructArray)) or any(
            isinstance(e, (CellArray, StructArray)) for e in data.reshape(-1)):
        if all(isinstance(e, StructArray) for e in data.reshape(-1)):
            return _struct_cat(data)
        raise MatlabError("MATLAB:cell2mat:UnsupportedCellContent",
                          "CELL2MAT does not support cell arrays containing cell arrays or objects.")
    if c.data.ndim > 2:
        return canonical(_concat_nd(c.data))
    rows = []
    for r in range(data.shape[0]):
        rows.append(_concat_rows([to_array(e) for e in data[r, :]], axis=1))
    return canonical(_concat_rows(rows, axis=0))


def _concat_nd(cells: np.ndarray) -> np.ndarray:
    """N-D cell2mat: concatenate along the last cell dimension first, then
    the earlier ones (each block's dimensions padded with singletons)."""
    blocks = np.empty(cells.shape, dtype=object)
    for pos in np.ndindex(cells.shape):
        arr = to_array(cells[pos])
        blocks[pos] = arr.reshape(arr.shape + (1,) * (cells.ndim - arr.ndim))
    for axis in range(cells.ndim - 1, -1, -1):
        merged = np.empty(blocks.shape[:-1], dtype=object)
        for pos in np.ndindex(merged.shape):
            parts = [blocks[pos + (k,)] for k in range(blocks.shape[-1])]
            try:
                merged[pos] = np.concatenate(parts, axis=axis)
            except ValueError:
                raise MatlabError("MATLAB:catenate:dimensionMismatch",
                                  "Dimensions of arrays being concatenated are not consistent.") from None
        blocks = merged
    return blocks.reshape(())[()] if blocks.ndim == 0 else blocks


def _struct_cat(data: np.ndarray) -> StructArray:
    fields = data.reshape(-1)[0].fields
    rows = []
    for r in range(data.shape[0]):
        rows.append(np.concatenate([e.data for e in data[r, :]], axis=1))
    return StructArray(list(fields), np.concatenate(rows, axis=0))


# ----------------------------------------------------------------- structs
def _check_field_name(name: str) -> str:
    if not _IDENT.match(name) or len(name) > 63:
        raise MatlabError("MATLAB:InvalidFieldName", f'Invalid field name "{name}".')
    return name


#: Field names already checked, by the bytes of their 1xN char row.
_CHECKED_NAMES: dict[bytes, str] = {}
_CHECKED_NAMES_MAX = 4096


def _char_row_field_name(arg: Any) -> str | None:
    """The field name a 1xN char row spells (checked once per spelling), or
    None when ``arg`` is not a char row."""
    if type(arg) is not np.ndarray or arg.dtype != CHAR_DTYPE or arg.ndim != 2 or arg.shape[0] != 1:
        return None
    key = arg.tobytes()
    name = _CHECKED_NAMES.get(key)
    if name is None:
        name = _check_field_name(to_str(arg))
        if len(_CHECKED_NAMES) < _CHECKED_NAMES_MAX:
            _CHECKED_NAMES[key] = name
    return name


def _plain_struct(args: tuple) -> StructArray | None:
    """``struct('a', v, 'b', w, ...)`` with char-row names and no cell
    values (one struct): the common call, without the general checks'
    conversions; None for anything else."""
    fields: dict[str, Any] = {}
    for k in range(0, len(args), 2):
        name = _char_row_field_name(args[k])
        value = args[k + 1]
        if name is None or name in fields or isinstance(value, CellArray):
            return None
        fields[name] = value
    one = np.empty((1, 1), dtype=object)
    one[0, 0] = fields
    return StructArray(list(fields), one)


@builtin("struct", category="structs", nargin=(0, None))
def struct(*args: Any) -> Any:
    """Struct (array) from name/value pairs; cell values make struct arrays."""
    if len(args) >= 2 and not len(args) % 2:
        plain = _plain_struct(args)
        if plain is not None:
            return plain
    if not args:
        return StructArray.scalar({})
    if len(args) == 1:
        if isinstance(args[0], StructArray):
            return args[0]
        if type(args[0]) is np.ndarray and args[0].size == 0 and args[0].dtype.kind == "f":
            # struct([]): a 0x0 struct array with no fields
            return StructArray([], np.empty((0, 0), dtype=object))
        if isinstance(args[0], MObject):
            return StructArray.scalar({n: args[0].get_property(n) for n in args[0].property_names()})
        raise MatlabError("MATLAB:struct:InvalidInput" if not is_text(args[0]) else "MATLAB:struct:fieldValuePairs",
                          "Field and value input arguments must come in pairs.")
    if len(args) % 2:
        raise MatlabError("MATLAB:struct:fieldValuePairs", "Field and value input arguments must come in pairs.")
    names: list[str] = []
    values: list[Any] = []
    shape: tuple[int, ...] | None = None
    for k in range(0, len(args), 2):
        if not is_text(args[k]):
            raise MatlabError("MATLAB:struct:invalidFieldName", "Field names must be non-empty character vectors or strings.")
        name = _check_field_name(to_str(args[k]))
        value = args[k + 1]
        if isinstance(value, CellArray) and value.data.size != 1:
            if shape is not None and shape != value.data.shape:
                raise MatlabError("MATLAB:struct:DimensionMismatch", "Array dimensions of input 2 must match those of input 4 or be scalar.")
            shape = value.data.shape
        if name in names:
            raise MatlabError("MATLAB:struct:DuplicateFieldName", f"Duplicate field name \"{name}\".")
        names.append(name)
        values.append(value)
    if shape is None and not any(isinstance(v, CellArray) for v in values):
        # No cell values: one struct, its fields the values as given.
        one = np.empty((1, 1), dtype=object)
        one[0, 0] = dict(zip(names, values))
        return StructArray(names, one)
    shape = shape or (1, 1)
    count = int(np.prod(shape))
    flat = np.empty(count, dtype=object)
    for i in range(count):
        entry = {}
        for name, value in zip(names, values):
            if isinstance(value, CellArray):
                entry[name] = value.data.reshape(-1, order="F")[0 if value.data.size == 1 else i]
            else:
                entry[name] = value
        flat[i] = entry
    return StructArray(names, flat.reshape(shape, order="F"))


def _require_struct(s: Any, fn: str) -> StructArray:
    if not isinstance(s, StructArray):
        raise MatlabError(f"MATLAB:{fn}:InvalidInput" if fn != "fieldnames" else "MATLAB:fieldnames:InvalidInput",
                          f"Invalid input argument of type '{class_of(s)}'. Input must be a structure.")
    return s


@builtin("fieldnames", category="structs", nargin=(1, 2))
def fieldnames(s: Any, *_: Any) -> Any:
    """Field names as an Nx1 cell array of char vectors."""
    if isinstance(s, MObject):
        names = s.property_names()
    else:
        names = list(_require_struct(s, "fieldnames").fields)
    if not names:
        return CellArray.empty((0, 1))
    return CellArray.from_list([make_char(n) for n in names], (len(names), 1))


@builtin("isfield", category="structs", nargin=(2, 2))
def isfield(s: Any, names: Any) -> Any:
    """True where names are fields of struct s."""
    fields = set(s.fields) if isinstance(s, StructArray) else set()
    if isinstance(names, CellArray):
        values = [(is_char(n) and to_str(n) in fields) for n in names.data.reshape(-1, order="F")]
        return canonical(np.array(values, dtype=bool).reshape(names.data.shape, order="F"))
    if not is_text(names):
        return False
    return to_str(names) in fields


def _copy_struct(s: StructArray, fields: list[str]) -> StructArray:
    flat = s.data.reshape(-1, order="F")
    out = np.empty(flat.size, dtype=object)
    for i, d in enumerate(flat):
        out[i] = {f: d[f] for f in fields if f in d}
    return StructArray(fields, out.reshape(s.data.shape, order="F"))


@builtin("rmfield", category="structs", nargin=(2, 2))
def rmfield(s: Any, names: Any) -> Any:
    """Remove fields from a struct array."""
    st = _require_struct(s, "rmfield")
    remove = [n or "" for n in text_arg(names, "rmfield").items]
    for n in remove:
        if n not in st.fields:
            raise MatlabError("MATLAB:rmfield:InvalidFieldname",
                              f"A field named '{n}' doesn't exist.")
    return _copy_struct(st, [f for f in st.fields if f not in remove])


def _field_name_arg(v: Any, fn: str) -> str:
    if not is_text(v):
        raise MatlabError(f"MATLAB:{fn}:InvalidFieldName", "Field names must be character vectors or strings.")
    return to_str(v)


@builtin("getfield", category="structs", nargin=(2, None))
def getfield(s: Any, *path: Any) -> Any:
    """Value of a (nested) field: getfield(s, 'a', 'b') is s.a.b; a cell of
    subscripts indexes on the way, getfield(s, {1,2}, 'a', {3}) is s(1,2).a(3)."""
    from matfuse.runtime.indexing import paren_get

    value = s
    for part in path:
        if isinstance(part, CellArray):
            value = paren_get(value, list(part.data.reshape(-1, order="F")))
            continue
        name = _field_name_arg(part, "getfield")
        st = _require_struct(value, "getfield")
        if name not in st.fields:
            raise MatlabError("MATLAB:nonExistentField", f'Unrecognized field name "{name}".')
        value = st.data.reshape(-1, order="F")[0][name]
    return value


@builtin("setfield", category="structs", nargin=(3, None))
def setfield(s: Any, *path_and_value: Any) -> Any:
    """Copy of s with a (nested) field set: setfield(s, 'a', v); a cell of
    subscripts indexes on the way, setfield(s, {1,2}, 'a', {3}, v) is
    s(1,2).a(3) = v (growing arrays as that assignment does)."""
    *path, value = path_and_value
    if not any(isinstance(p, CellArray) for p in path):
        return _set_path(s, [_field_name_arg(p, "setfield") for p in path], value)
    return _set_indexed(s, path, value)


def _set_indexed(target: Any, path: list[Any], value: Any) -> Any:
    from matfuse.runtime._assign import paren_set
    from matfuse.runtime.indexing import lvalue_field_get, lvalue_paren_get

    if not path:
        return value
    part, rest = path[0], path[1:]
    if isinstance(part, CellArray):
        idx = list(part.data.reshape(-1, order="F"))
        inner = _set_indexed(lvalue_paren_get(target, idx) if rest else None, rest, value)
        base = target if target is not None else (StructArray.scalar({}) if isinstance(inner, StructArray)
                                                  else np.zeros((0, 0)))
        return paren_set(base, idx, inner)
    name = _field_name_arg(part, "setfield")
    return _set_path(target, [name], _set_indexed(lvalue_field_get(target, name), rest, value))


def _set_path(s: Any, names: list[str], value: Any) -> StructArray:
    if s is None or (isinstance(s, np.ndarray) and s.size == 0):
        s = StructArray.scalar({})
    st = _require_struct(s, "setfield")
    name = _check_field_name(names[0])
    fields = list(st.fields) + ([name] if name not in st.fields else [])
    out = _copy_struct(st, fields)
    entry = out.data.reshape(-1, order="F")[0]
    for f in fields:
        entry.setdefault(f, np.zeros((0, 0)))
    entry[name] = value if len(names) == 1 else _set_path(entry.get(name), names[1:], value)
    return out


@builtin("orderfields", category="structs", nargin=(1, 2), nargout=(0, 2), wants_nargout=True)
def orderfields(s: Any, order: Any = None, *, nargout: int = 1) -> Any:
    """Struct with fields sorted (or in the order of a struct/cell/permutation)."""
    st = _require_struct(s, "orderfields")
    if order is None:
        new = sorted(st.fields)
    elif isinstance(order, StructArray):
        new = list(order.fields)
    elif isinstance(order, CellArray):
        new = [n or "" for n in text_arg(order, "orderfields").items]
    else:
        if is_char(order) or type(order) not in (float, np.ndarray):
            raise MatlabError("MATLAB:orderfields:InvalidInput", "Invalid second input.")
        perm = [whole_number(float(p), "orderfields", "Permutation", 1) - 1
                for p in to_array(order).reshape(-1).tolist()]
        if sorted(perm) != list(range(len(st.fields))):
            raise MatlabError("MATLAB:orderfields:InvalidPermutation", "Invalid permutation vector.")
        new = [st.fields[p] for p in perm]
    if sorted(new) != sorted(st.fields):
        raise MatlabError("MATLAB:orderfields:FieldsMismatch",
                          "The field names of both inputs must match.")
    result = _copy_struct(st, new)
    if nargout >= 2:
        perm = np.array([[float(st.fields.index(f) + 1)] for f in new]).reshape(-1, 1)
        return result, canonical(perm)
    return result


@builtin("deal", category="structs", nargin=(1, None), nargout=(0, None), wants_nargout=True)
def deal(*args: Any, nargout: int = 1) -> Any:
    """Copy inputs to outputs: [a, b] = deal(x) or [a, b] = deal(x, y)."""
    count = max(nargout, 1)
    if len(args) == 1:
        return tuple(args[0] for _ in range(count)) if count > 1 else args[0]
    if len(args) != count:
        raise MatlabError("MATLAB:deal:narginNargoutMismatch",
                          "The number of outputs should match the number of inputs.")
    return tuple(args) if count > 1 else args[0]


@builtin("cell2struct", category="structs", nargin=(2, 3))
def cell2struct(c: Any, fields: Any, dim: Any = None) -> Any:
    """Struct array from a cell array (fields along dimension dim)."""
    if not isinstance(c, CellArray):
        raise MatlabError("MATLAB:cell2struct:ArgumentMustBeCell", "The first argument must be a cell array.")
    names = [_check_field_name(n or "") for n in text_arg(fields, "cell2struct").items]
    d = whole_number(dim, "cell2struct", "Dimension", 1) - 1 if dim is not None else 0
    if d < 0:
        raise MatlabError("MATLAB:cell2struct:InvalidDim", "Dimension must be a positive integer.")
    data = c.data.reshape(c.data.shape + (1,) * (d + 1 - c.data.ndim)) if d >= c.data.ndim else c.data
    if data.shape[d] != len(names):
        raise MatlabError("MATLAB:cell2struct:InvalidFieldNameCount" if d == 0 else "MATLAB:cell2struct:InvalidDim",
                          "Number of field names must match number of fields in new structure.")
    # The struct array has the cell's size without dimension dim.
    moved = np.moveaxis(data, d, 0)
    rest = moved.shape[1:]
    shape = rest + (1,) if len(rest) == 1 else rest
    flat = moved.reshape(len(names), int(np.prod(rest)), order="F")
    out = np.empty(flat.shape[1], dtype=object)
    for j in range(flat.shape[1]):
        out[j] = {n: flat[i, j] for i, n in enumerate(names)}
    return StructArray(names, out.reshape(shape, order="F"))


@builtin("struct2cell", category="structs", nargin=(1, 1))
def struct2cell(s: Any) -> Any:
    """Cell array of the field values (fields down the first dimension)."""
    st = _require_struct(s, "struct2cell")
    flat = st.data.reshape(-1, order="F")
    out = np.empty((len(st.fields), flat.size), dtype=object)
    for j, d in enumerate(flat):
        for i, f in enumerate(st.fields):
            out[i, j] = d[f]
    if flat.size == 1:
        return CellArray(out.reshape(len(st.fields), 1))
    return CellArray(out.reshape((len(st.fields),) + st.data.shape, order="F")
                     if st.data.shape[0] != 1 else out)
