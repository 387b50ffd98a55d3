"""``containers.Map`` and its functions: the constructor, ``keys``,
``values``, ``isKey``, ``remove`` (``length``/``size``/``isempty`` read the
map's ``shape``, ``Count``-by-1)."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.containers_map import (
    KEY_TYPES,
    VALUE_TYPES,
    ContainersMap,
    no_key_error,
)
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    StringArray,
    class_of,
    to_str,
)

_OPTIONS = ("keytype", "valuetype", "uniformvalues")


def _text(v: Any) -> str | None:
    if type(v) is np.ndarray and v.dtype == CHAR_DTYPE and v.ndim == 2 and v.shape[0] <= 1:
        return "".join(v.reshape(-1).tolist())
    if type(v) is StringArray and v.data.size == 1:
        return to_str(v)
    return None


def _truth(v: Any) -> bool:
    if type(v) in (bool, float):
        return bool(v)
    if type(v) is np.ndarray and v.size == 1 and v.dtype.kind in "biuf":
        return bool(v.reshape(-1)[0])
    raise MatlabError("MATLAB:Containers:Map:UniformValues",
                      "'UniformValues' must be true or false.")


def _options(args: tuple) -> dict[str, Any]:
    if len(args) % 2:
        raise MatlabError("MATLAB:Containers:Map:InvalidParameters",
                          "Parameter names and values must come in pairs.")
    options: dict[str, Any] = {}
    for name, value in zip(args[::2], args[1::2]):
        text = _text(name)
        if text is None or text.lower() not in _OPTIONS:
            raise MatlabError("MATLAB:Containers:Map:InvalidParameters",
                              "Expected 'KeyType', 'ValueType' or 'UniformValues'.")
        options[text.lower()] = value
    return options


def _type_option(options: dict[str, Any], name: str, allowed: tuple[str, ...],
                 default: str) -> str:
    if name not in options:
        return default
    text = _text(options[name])
    if text is None or text not in allowed:
        label = "KeyType" if name == "keytype" else "ValueType"
        raise MatlabError(f"MATLAB:Containers:Map:Unsupported{label}",
                          f"Unsupported {label} '{text}'. Valid types are "
                          + ", ".join(f"'{t}'" for t in allowed) + ".")
    return text


def _key_list(keys: Any) -> tuple[list[Any], str]:
    """The keys of ``containers.Map(keys, values)`` and their KeyType."""
    single = _text(keys)
    if single is not None:
        return [keys], "char"
    if type(keys) is StringArray:
        return [StringArray.scalar(s) for s in keys.data.reshape(-1, order="F")], "char"
    if type(keys) is CellArray:
        items = list(keys.data.reshape(-1, order="F"))
        if all(_text(k) is not None for k in items):
            return items, "char"
        if all(class_of(k) in KEY_TYPES + ("logical",) and np.size(k) == 1 for k in items):
            cls = class_of(items[0]) if items else "double"
            return items, cls if cls in KEY_TYPES[1:] else "double"
        raise MatlabError("MATLAB:Containers:Map:InvalidKeys",
                          "Keys must be character vectors or numeric scalars.")
    if type(keys) is float or type(keys) is bool:
        return [keys], "double"
    if type(keys) is np.ndarray and keys.dtype.kind in "biuf":
        cls = class_of(keys)
        items = [np.array([[k]], dtype=keys.dtype) if cls != "double" else float(k)
                 for k in keys.reshape(-1, order="F")]
        return items, cls if cls in KEY_TYPES[1:] else "double"
    raise MatlabError("MATLAB:Containers:Map:InvalidKeys",
                      "Keys must be character vectors or numeric scalars.")


def _value_list(values: Any, count: int) -> list[Any]:
    if count == 1 and not (type(values) is CellArray and values.data.size == 1):
        return [values]
    if type(values) is CellArray:
        items = list(values.data.reshape(-1, order="F"))
    elif type(values) is np.ndarray and values.dtype.kind in "biufc":
        items = [np.array([[v]], dtype=values.dtype) if values.dtype != np.float64 else float(v)
                 for v in values.reshape(-1, order="F")]
        if values.dtype == np.bool_:
            items = [bool(v) for v in values.reshape(-1, order="F")]
    else:
        items = [values]
    if len(items) != count:
        raise MatlabError("MATLAB:Containers:Map:KeyValueNumberMismatch",
                          "The number of keys and values must be the same.")
    return items


def _uniform_type(values: list[Any]) -> str:
    """MATLAB's ValueType for uniform values: all char vectors, or all
    scalars of one class; 'any' otherwise."""
    if not values:
        return "any"
    if all(_text(v) is not None and type(v) is np.ndarray for v in values):
        return "char"
    classes = {class_of(v) for v in values}
    if len(classes) == 1 and all(np.size(v) == 1 for v in values):
        cls = classes.pop()
        if cls in VALUE_TYPES:
            return cls
    return "any"


@builtin("containers.Map", category="containers", nargin=(0, None))
def containers_map(*args: Any) -> ContainersMap:
    """``containers.Map()``, ``containers.Map(keys, values[, 'UniformValues', tf])``,
    ``containers.Map('KeyType', kt, 'ValueType', vt)``: a new map object."""
    first = _text(args[0]) if args else None
    # The empty-map form names both types (a single 'KeyType' key is a key).
    if not args or (first is not None and first.lower() in ("keytype", "valuetype")
                    and len(args) >= 4):
        options = _options(args)
        if "uniformvalues" in options:
            _truth(options["uniformvalues"])
        return ContainersMap(_type_option(options, "keytype", KEY_TYPES, "char"),
                             _type_option(options, "valuetype", VALUE_TYPES, "any"))
    keys, key_type = _key_list(args[0])
    if len(args) < 2:
        raise MatlabError("MATLAB:Containers:Map:KeyValueNumberMismatch",
                          "The number of keys and values must be the same.")
    values = _value_list(args[1], len(keys))
    options = _options(args[2:])
    uniform = _truth(options["uniformvalues"]) if "uniformvalues" in options else True
    key_type = _type_option(options, "keytype", KEY_TYPES, key_type)
    value_type = _type_option(options, "valuetype", VALUE_TYPES,
                              _uniform_type(values) if uniform else "any")
    m = ContainersMap(key_type, value_type)
    for key, value in zip(keys, values):
        m.set(key, value)
    return m


def _the_map(m: Any, name: str) -> ContainersMap:
    if type(m) is not ContainersMap:
        raise MatlabError("MATLAB:UndefinedFunction",
                          f"Undefined function '{name}' for input arguments of type "
                          f"'{class_of(m)}'.")
    return m


def _key_cell(keys: Any) -> CellArray:
    if type(keys) is not CellArray:
        raise MatlabError("MATLAB:Containers:Map:NeedCell",
                          "Specify the keys as a cell array.")
    return keys


@builtin("keys", category="containers", nargin=(1, 1))
def keys(m: Any) -> CellArray:
    """``keys(M)``: the map's keys, sorted, as a 1-by-N cell."""
    return _the_map(m, "keys").keys_cell()


@builtin("values", category="containers", nargin=(1, 2))
def values(m: Any, key_set: Any = None) -> CellArray:
    """``values(M)``: the values in key order (1-by-N cell); ``values(M, keySet)``:
    the values of the keys in the cell ``keySet`` (same shape)."""
    the_map = _the_map(m, "values")
    if key_set is None:
        return the_map.values_cell()
    cell = _key_cell(key_set)
    flat = [the_map.get(k) for k in cell.data.reshape(-1, order="F")]
    return CellArray.from_list(flat, cell.data.shape)


@builtin("isKey", category="containers", nargin=(2, 2))
def is_key(m: Any, key: Any) -> Any:
    """``isKey(M, key)``: true where the key (or each key of a cell) is in the map."""
    the_map = _the_map(m, "isKey")
    if type(key) is CellArray:
        flat = [the_map.key_of(k) in the_map.entries for k in key.data.reshape(-1, order="F")]
        out = np.array(flat, dtype=np.bool_).reshape(key.data.shape, order="F")
        return bool(out.reshape(-1)[0]) if out.size == 1 else out
    return the_map.key_of(key) in the_map.entries


@builtin("remove", category="containers", nargin=(2, 2))
def remove(m: Any, key: Any) -> ContainersMap:
    """``remove(M, key)`` / ``remove(M, keySet)``: delete entries (the map is a
    handle: every copy sees it); a missing key is an error."""
    the_map = _the_map(m, "remove")
    items = list(key.data.reshape(-1, order="F")) if type(key) is CellArray else [key]
    dict_keys = [the_map.key_of(k) for k in items]
    for k in dict_keys:
        if k not in the_map.entries:
            raise no_key_error(k)
    for k in dict_keys:
        del the_map.entries[k]
    return the_map
