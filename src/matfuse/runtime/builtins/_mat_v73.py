"""MAT-file version 7.3: MATLAB's HDF5 layout, through h5py (``matfuse[hdf5]``).

The layout MATLAB writes and reads:

* a 512-byte user block starting ``MATLAB 7.3 MAT-file, ...`` with version
  0x0200 and the ``IM`` endian mark at bytes 124..127;
* one root member per variable with a ``MATLAB_class`` attribute;
* arrays stored with their dimensions reversed (HDF5 is row-major, MATLAB
  column-major), so the column-major element order is kept;
* empty arrays as a uint64 vector of their dimensions with ``MATLAB_empty``;
* char as uint16 code units, logical as uint8, both with ``MATLAB_int_decode``;
* complex as a compound of ``real`` and ``imag``;
* cells as arrays of object references into the ``#refs#`` group;
* scalar structs as groups (one member per field, ``MATLAB_fields`` lists
  their order); struct arrays as groups whose fields are reference arrays.

String arrays are written as cells of char rows with an extra attribute
``MATFUSE_class = "string"``: MATLAB reads a cell array of character
vectors, matfuse a string array again.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._mat_values import host_value
from matfuse.runtime.sparse_matfile import is_v73_sparse, read_sparse_v73, write_sparse_v73
from matfuse.runtime.sparse_matrix import SparseMatrix
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    StringArray,
    StructArray,
    canonical,
    char_array,
    char_codes,
    class_of,
    codes_to_char,
    normalize_shape,
    to_str,
)

USERBLOCK_SIZE = 512


def require_h5py() -> Any:
    try:
        import h5py
    except ImportError:
        raise MatlabError("matfuse:missingExtra",
                          "MAT-file version 7.3 needs the h5py package: pip install 'matfuse[hdf5]'.") from None
    return h5py


def header_bytes() -> bytes:
    """The 128-byte text header of the user block (the rest is zeros)."""
    stamp = time.strftime("%a %b %d %H:%M:%S %Y", time.gmtime())
    text = f"MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: {stamp} HDF5 schema 1.00 ."
    return text.encode("ascii").ljust(116, b" ") + b"\x00" * 8 + b"\x00\x02" + b"IM"


def is_v73(head: bytes) -> bool:
    return len(head) >= 128 and head[124:126] == b"\x00\x02" and head[126:128] == b"IM"


# ------------------------------------------------------------------ write
class _Writer:
    def __init__(self, h5: Any, h5py: Any):
        self.h5 = h5
        self.h5py = h5py
        self.count = 0

    def refs_group(self) -> Any:
        return self.h5.require_group("#refs#")

    def new_ref(self, value: Any) -> Any:
        """Store ``value`` under ``#refs#`` and return a reference to it."""
        name = _ref_name(self.count)
        self.count += 1
        node = self.write(self.refs_group(), name, value)
        return node.ref

    def write(self, parent: Any, name: str, value: Any) -> Any:
        value = host_value(value)
        t = type(value)
        if t in (float, bool, complex):
            value = np.array([[value]])
            t = np.ndarray
        if t is np.ndarray:
            return self._array(parent, name, value)
        if t is CellArray:
            return self._refs(parent, name, value.data, "cell")
        if t is StringArray:
            cells = np.empty(value.shape, dtype=object)
            for idx in np.ndindex(value.shape):
                cells[idx] = char_array(value.data[idx] or "")
            node = self._refs(parent, name, cells, "cell")
            node.attrs["MATFUSE_class"] = np.bytes_("string")
            missing = [i for i, t in enumerate(value.data.reshape(-1, order="F")) if t is None]
            if missing:
                node.attrs["MATFUSE_missing"] = np.array(missing, dtype=np.uint64)
            return node
        if t is StructArray:
            return self._struct(parent, name, value)
        if t is SparseMatrix:
            return write_sparse_v73(parent, name, value)
        raise AssertionError(f"check_saveable let {type(value).__name__} through")

    def _array(self, parent: Any, name: str, arr: np.ndarray) -> Any:
        cls = class_of(arr)
        if arr.size == 0:
            node = parent.create_dataset(name, data=np.array(arr.shape, dtype=np.uint64))
            node.attrs["MATLAB_class"] = np.bytes_(cls)
            node.attrs["MATLAB_empty"] = np.uint8(1)
            return node
        if arr.dtype == CHAR_DTYPE:
            codes = char_codes(arr)
            if codes.size and int(codes.max()) > 0xFFFF:
                raise MatlabError("MATLAB:save:unsupportedCharacter",
                                  f"Unable to save variable '{name}': characters outside the "
                                  "Basic Multilingual Plane cannot be stored in a v7.3 MAT-file.")
            data = codes.astype(np.uint16)
        elif arr.dtype == np.bool_:
            data = arr.astype(np.uint8)
        elif arr.dtype.kind == "c":
            part = np.float32 if arr.dtype == np.complex64 else np.float64
            data = np.empty(arr.shape, dtype=[("real", part), ("imag", part)])
            data["real"] = arr.real
            data["imag"] = arr.imag
        else:
            data = arr
        node = parent.create_dataset(name, data=np.transpose(data))
        node.attrs["MATLAB_class"] = np.bytes_(cls)
        if arr.dtype == CHAR_DTYPE:
            node.attrs["MATLAB_int_decode"] = np.int32(2)
        elif arr.dtype == np.bool_:
            node.attrs["MATLAB_int_decode"] = np.int32(1)
        return node

    def _refs(self, parent: Any, name: str, items: np.ndarray, cls: str) -> Any:
        if items.size == 0:
            node = parent.create_dataset(name, data=np.array(items.shape, dtype=np.uint64))
            node.attrs["MATLAB_class"] = np.bytes_(cls)
            node.attrs["MATLAB_empty"] = np.uint8(1)
            return node
        refs = np.empty(items.shape, dtype=self.h5py.ref_dtype)
        for idx in np.ndindex(items.shape):
            refs[idx] = self.new_ref(items[idx])
        node = parent.create_dataset(name, data=np.transpose(refs), dtype=self.h5py.ref_dtype)
        node.attrs["MATLAB_class"] = np.bytes_(cls)
        return node

    def _struct(self, parent: Any, name: str, value: StructArray) -> Any:
        fields_attr = np.empty(len(value.fields), dtype=self.h5py.vlen_dtype(np.dtype("S1")))
        for i, f in enumerate(value.fields):
            fields_attr[i] = np.frombuffer(f.encode("ascii"), dtype="S1")
        if value.data.size == 0:
            node = parent.create_dataset(name, data=np.array(value.shape, dtype=np.uint64))
            node.attrs["MATLAB_empty"] = np.uint8(1)
        else:
            node = parent.create_group(name)
            if value.data.size == 1:
                element = value.data.reshape(-1)[0]
                for f in value.fields:
                    self.write(node, f, element[f])
            else:
                for f in value.fields:
                    items = np.empty(value.shape, dtype=object)
                    for idx in np.ndindex(value.shape):
                        items[idx] = value.data[idx][f]
                    refs = np.empty(value.shape, dtype=self.h5py.ref_dtype)
                    for idx in np.ndindex(value.shape):
                        refs[idx] = self.new_ref(items[idx])
                    node.create_dataset(f, data=np.transpose(refs), dtype=self.h5py.ref_dtype)
        node.attrs["MATLAB_class"] = np.bytes_("struct")
        if value.fields:
            node.attrs.create("MATLAB_fields", fields_attr, dtype=self.h5py.vlen_dtype(np.dtype("S1")))
        return node


def _ref_name(n: int) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    out = ""
    n += 1          # MATLAB keeps '#refs#/a' for its own empty marker
    while True:
        out = letters[n % 26] + out
        n = n // 26 - 1
        if n < 0:
            return out


def write_v73(path: str, variables: dict[str, Any]) -> None:
    """Write ``variables`` to a new v7.3 file at ``path``."""
    h5py = require_h5py()
    with h5py.File(path, "w", userblock_size=USERBLOCK_SIZE, libver="earliest") as h5:
        writer = _Writer(h5, h5py)
        refs = h5.create_group("#refs#")
        marker = refs.create_dataset("a", data=np.array([0, 0], dtype=np.uint64))
        marker.attrs["MATLAB_class"] = np.bytes_("canonical empty")
        marker.attrs["MATLAB_empty"] = np.uint8(1)
        for name, value in variables.items():
            writer.write(h5, name, value)
    with open(path, "r+b") as fh:
        fh.write(header_bytes())


# ------------------------------------------------------------------- read
def _attr_text(node: Any, key: str) -> str | None:
    raw = node.attrs.get(key)
    if raw is None:
        return None
    if isinstance(raw, bytes):
        return raw.decode("ascii", "replace")
    if isinstance(raw, np.ndarray) and raw.dtype.kind == "S":
        return b"".join(raw.reshape(-1).tolist()).decode("ascii", "replace")
    return str(raw)


def _field_order(node: Any) -> list[str]:
    raw = node.attrs.get("MATLAB_fields")
    if raw is None:
        return [k for k in node.keys()]
    return [b"".join(np.asarray(f).tolist()).decode("ascii") for f in raw]


def _reader(h5: Any, h5py: Any) -> Any:
    def read(node: Any, name: str) -> Any:
        cls = _attr_text(node, "MATLAB_class") or "double"
        if isinstance(node, h5py.Group):
            if is_v73_sparse(node):
                return read_sparse_v73(node)
            if cls != "struct":
                raise _unsupported(name, cls)
            fields = _field_order(node)
            if any(isinstance(node[f], h5py.Dataset) and node[f].dtype == h5py.ref_dtype
                   and _attr_text(node[f], "MATLAB_class") is None for f in fields):
                return _struct_array(node, fields, name)
            return StructArray.scalar({f: read(node[f], name) for f in fields})
        if node.attrs.get("MATLAB_empty") is not None and int(np.asarray(node.attrs["MATLAB_empty"])):
            dims = tuple(int(d) for d in np.asarray(node[()]).reshape(-1)) if node.size else (0, 0)
            shape = normalize_shape(dims) if dims else (0, 0)
            if _attr_text(node, "MATFUSE_class") == "string":
                return StringArray(np.empty(shape, dtype=object))
            return _empty(cls, shape, node)
        if node.attrs.get("MATLAB_object_decode") is not None or cls in ("function_handle", "string"):
            raise _unsupported(name, cls)
        raw = np.transpose(node[()])
        if cls == "cell":
            data = np.empty(raw.shape, dtype=object)
            for idx in np.ndindex(raw.shape):
                data[idx] = read(h5[raw[idx]], name)
            data = data.reshape(normalize_shape(data.shape), order="F")
            if _attr_text(node, "MATFUSE_class") == "string":
                return _strings(data, node)
            return CellArray(data)
        return _numeric(raw, cls, name)

    def _struct_array(node: Any, fields: list[str], name: str) -> StructArray:
        shape = np.transpose(node[fields[0]][()]).shape
        data = np.empty(shape, dtype=object)
        columns = {f: np.transpose(node[f][()]) for f in fields}
        for idx in np.ndindex(shape):
            data[idx] = {f: read(h5[columns[f][idx]], name) for f in fields}
        return StructArray(fields, data.reshape(normalize_shape(shape), order="F"))

    return read


def _strings(cells: np.ndarray, node: Any) -> StringArray:
    data = np.empty(cells.shape, dtype=object)
    for idx in np.ndindex(cells.shape):
        item = cells[idx]
        data[idx] = to_str(item) if item.size else ""
    missing = node.attrs.get("MATFUSE_missing")
    if missing is not None:
        flat = data.reshape(-1, order="F")
        for i in np.asarray(missing).reshape(-1):
            flat[int(i)] = None
        data = flat.reshape(cells.shape, order="F")
    return StringArray(data)


def _empty(cls: str, shape: tuple[int, ...], node: Any) -> Any:
    if cls == "cell":
        return CellArray(np.empty(shape, dtype=object))
    if cls == "struct":
        fields = _field_order(node) if node.attrs.get("MATLAB_fields") is not None else []
        return StructArray(fields, np.empty(shape, dtype=object))
    if cls == "canonical empty":
        return np.zeros((0, 0))
    if cls == "char":
        return np.zeros(shape, dtype=CHAR_DTYPE)
    if cls == "logical":
        return np.zeros(shape, dtype=np.bool_)
    from matfuse.runtime.values import CLASS_DTYPES

    return np.zeros(shape, dtype=CLASS_DTYPES.get(cls, np.float64))


def _numeric(raw: np.ndarray, cls: str, name: str) -> Any:
    if raw.dtype.names is not None and {"real", "imag"} <= set(raw.dtype.names):
        part = raw["real"].dtype
        out = np.empty(raw.shape, dtype=np.complex64 if part == np.float32 else np.complex128)
        out.real = raw["real"]
        out.imag = raw["imag"]
        arr = out
    elif cls == "char":
        arr = codes_to_char(raw.astype(np.uint32))
    elif cls == "logical":
        arr = raw.astype(np.bool_)
    else:
        from matfuse.runtime.values import CLASS_DTYPES

        dtype = CLASS_DTYPES.get(cls)
        if dtype is None:
            raise _unsupported(name, cls)
        arr = raw.astype(dtype, copy=False)
    arr = np.ascontiguousarray(arr) if arr.ndim <= 1 else arr
    if arr.ndim < 2:
        arr = arr.reshape(1, -1)
    return canonical(arr.reshape(normalize_shape(arr.shape), order="F") if arr.ndim > 2 else arr)


def _unsupported(name: str, cls: str) -> MatlabError:
    return MatlabError("MATLAB:load:unsupportedClass",
                       f"Unable to load variable '{name}' of class '{cls}' from a version 7.3 MAT-file.")


def read_v73(path: str, skip: Callable[[str, MatlabError], None] | None = None) -> dict[str, Any]:
    """All variables of a v7.3 MAT-file (root members other than ``#refs#``
    and ``#subsystem#``).  A variable of a class matfuse cannot read (MATLAB
    objects, function handles) raises, or is passed to ``skip`` and left out."""
    h5py = require_h5py()
    out: dict[str, Any] = {}
    with h5py.File(path, "r") as h5:
        read = _reader(h5, h5py)
        for name in h5.keys():
            if name.startswith("#"):
                continue
            try:
                out[name] = read(h5[name], name)
            except MatlabError as err:
                if skip is None or err.identifier != "MATLAB:load:unsupportedClass":
                    raise
                skip(name, err)
    return out
