"""``containers.Map``: a handle object mapping char or numeric scalar keys
to values.

Keys are held as Python ``str`` (KeyType ``char``) or ``float``/``int``
(numeric KeyTypes) in a dict; ``keys``/``values`` list them sorted as
MATLAB does (char keys by character codes, numeric keys ascending).
Assignment ``m(key) = v`` updates the one object every copy of the handle
refers to (``m2 = m`` shares it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    MObject,
    StringArray,
    char_array,
    class_of,
    to_str,
)

KEY_TYPES = ("char", "double", "single", "int32", "uint32", "int64", "uint64")
VALUE_TYPES = ("any", "char", "logical", "double", "single", "int8", "uint8", "int16",
               "uint16", "int32", "uint32", "int64", "uint64")
_INTEGER_KEYS = ("int32", "uint32", "int64", "uint64")


def no_key_error(key: Any = None) -> MatlabError:
    """MATLAB's error for a key the map lacks (its message names no key)."""
    return MatlabError("MATLAB:Containers:Map:NoKey",
                       "The specified key is not present in this container.")


def key_type_error() -> MatlabError:
    return MatlabError("MATLAB:Containers:TypeMismatch",
                       "Specified key type does not match the type expected for this container.")


def value_type_error() -> MatlabError:
    return MatlabError("MATLAB:Containers:TypeMismatch",
                       "Specified value type does not match the type expected for this "
                       "container.")


class ContainersMap(MObject):
    """A ``containers.Map`` (handle semantics: the Python object is the map)."""

    class_name = "containers.Map"
    is_handle_object = True
    # Methods callable as ``M.name(args)``: the builtin ``name(M, args)``.
    dot_methods = ("keys", "values", "isKey", "remove", "length")

    def __init__(self, key_type: str = "char", value_type: str = "any"):
        self.key_type = key_type
        self.value_type = value_type
        self.entries: dict[Any, Any] = {}

    # ------------------------------------------------------------- keys
    def key_of(self, key: Any) -> Any:
        """The dict key for a MATLAB key value (type-checked)."""
        if self.key_type == "char":
            if type(key) is np.ndarray and key.dtype == CHAR_DTYPE and (
                    key.ndim == 2 and key.shape[0] <= 1):
                return "".join(key.reshape(-1).tolist())
            if type(key) is StringArray and key.data.size == 1:
                return to_str(key)
            raise key_type_error()
        if type(key) is float:
            number = key
        elif type(key) is bool or (type(key) is np.ndarray and key.size == 1
                                   and key.dtype.kind in "fiub"):
            number = float(np.asarray(key).reshape(-1)[0])
        else:
            raise key_type_error()
        if self.key_type in _INTEGER_KEYS:
            return int(round(number))
        if self.key_type == "single":
            return float(np.float32(number))
        return number

    def key_value(self, key: Any) -> Any:
        """A dict key back as a MATLAB value of the map's KeyType."""
        if self.key_type == "char":
            return char_array(key)
        if self.key_type == "double":
            return float(key)
        return np.array([[key]], dtype=self.key_type)

    def sorted_keys(self) -> list[Any]:
        return sorted(self.entries)

    # ----------------------------------------------------------- values
    def checked_value(self, value: Any) -> Any:
        vt = self.value_type
        if vt == "any":
            return value
        cls = class_of(value)
        if vt == "char":
            if cls != "char":
                raise value_type_error()
            return value
        shape = np.shape(value) if type(value) is np.ndarray else (1, 1)
        if cls != vt or int(np.prod(shape)) != 1:
            raise value_type_error()
        return value

    def get(self, key: Any) -> Any:
        k = self.key_of(key)
        try:
            return self.entries[k]
        except KeyError:
            raise no_key_error(k) from None

    def set(self, key: Any, value: Any) -> None:
        self.entries[self.key_of(key)] = self.checked_value(value)

    # -------------------------------------------------------- properties
    @property
    def shape(self) -> tuple[int, ...]:
        return (len(self.entries), 1)

    def get_property(self, name: str) -> Any:
        if name == "Count":
            return np.array([[len(self.entries)]], dtype=np.uint64)
        if name == "KeyType":
            return char_array(self.key_type)
        if name == "ValueType":
            return char_array(self.value_type)
        if name == "keys":
            return self.keys_cell()
        if name == "values":
            return self.values_cell()
        return super().get_property(name)

    def property_names(self) -> list[str]:
        return ["Count", "KeyType", "ValueType"]

    def display_lines(self) -> list[str]:
        """MATLAB's display: the class's short name and its properties."""
        return ["  Map with properties:", "",
                f"        Count: {len(self.entries)}",
                f"      KeyType: {self.key_type}",
                f"    ValueType: {self.value_type}"]

    def keys_cell(self) -> CellArray:
        return CellArray.from_list([self.key_value(k) for k in self.sorted_keys()],
                                   (1, len(self.entries)))

    def values_cell(self) -> CellArray:
        return CellArray.from_list([self.entries[k] for k in self.sorted_keys()],
                                   (1, len(self.entries)))


def map_index(m: ContainersMap, idx: list) -> Any:
    """``m(key)``."""
    if len(idx) != 1:
        raise MatlabError("MATLAB:Containers:Map:OnlyOneKey",
                          "Only one level of indexing is supported by a containers.Map.")
    return m.get(idx[0])


def map_assign(m: ContainersMap, idx: list, value: Any) -> ContainersMap:
    """``m(key) = value``: updates the shared map and returns it."""
    if len(idx) != 1:
        raise MatlabError("MATLAB:Containers:Map:OnlyOneKey",
                          "Only one level of indexing is supported by a containers.Map.")
    m.set(idx[0], value)
    return m
