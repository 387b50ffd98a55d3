"""MAT-file versions 4, 5 and 7 (the non-HDF5 formats), through SciPy.

``write_v5`` writes a v7 file (v5 layout, compressed) that MATLAB reads;
``read_v5`` reads v4/v5/v7 files variable by variable, keeping every class
(``mat_dtype`` so logicals nested in cells stay logical and doubles that the
writer stored compactly come back as double).  String arrays have no SciPy
equivalent: they are written as an object of class ``string`` holding a cell
of char rows (and a ``missing`` mask), which matfuse reads back as a string
array.
"""

from __future__ import annotations

from typing import Any, BinaryIO, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._mat_values import host_value
from matfuse.runtime.sparse_matfile import is_scipy_sparse, sparse_from_v5, sparse_to_v5
from matfuse.runtime.sparse_matrix import SparseMatrix
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    StringArray,
    StructArray,
    as_matlab_array,
    canonical,
    char_array,
    to_str,
)


# ------------------------------------------------------------------ write
def to_mat(value: Any) -> Any:
    """A matfuse value as what scipy.io.savemat writes."""
    value = host_value(value)
    t = type(value)
    if t in (float, bool, complex):
        return np.array([[value]])
    if t is np.ndarray:
        if value.dtype == CHAR_DTYPE:
            return _char_to_mat(value)
        return value
    if t is CellArray:
        out = np.empty(value.shape, dtype=object)
        for idx in np.ndindex(value.shape):
            out[idx] = to_mat(value.data[idx])
        return out
    if t is StructArray:
        if not value.fields:
            # SciPy writes {} as a 1x1 struct without fields (and no other shape)
            if value.data.size != 1:
                raise MatlabError("MATLAB:save:unsupportedClass",
                                  "Empty struct arrays without fields need -v7.3.")
            return {}
        out = np.empty(value.shape, dtype=[(f, object) for f in value.fields])
        for idx in np.ndindex(value.shape):
            entry = value.data[idx]
            for f in value.fields:
                out[idx][f] = to_mat(entry[f])
        return out
    if t is StringArray:
        return _string_to_mat(value)
    if t is SparseMatrix:
        return sparse_to_v5(value)
    raise AssertionError(f"check_saveable let {type(value).__name__} through")


def _char_to_mat(value: np.ndarray) -> np.ndarray:
    """scipy writes an array of row strings as a char matrix (a U1 array
    would gain a trailing dimension)."""
    if value.size == 0:
        return np.zeros(value.shape if value.ndim == 2 else (0, 0), dtype=CHAR_DTYPE)
    rows = value.reshape(value.shape[0], -1, order="F")
    return np.array(["".join(row) for row in rows.tolist()])


def _string_to_mat(value: StringArray) -> Any:
    from scipy.io.matlab import MatlabObject

    texts = np.empty(value.shape, dtype=object)
    missing = np.zeros(value.shape, dtype=bool)
    for idx in np.ndindex(value.shape):
        text = value.data[idx]
        missing[idx] = text is None
        texts[idx] = _char_to_mat(char_array(text or ""))
    record = np.empty((1, 1), dtype=[("strings", object), ("missing", object)])
    record[0, 0]["strings"] = texts
    record[0, 0]["missing"] = missing
    return MatlabObject(record, "string")


def write_v5(fh: BinaryIO, variables: dict[str, Any], compress: bool = True,
             fmt: str = "5") -> None:
    """Write ``variables`` (checked by ``check_saveable``) as a v7 file (v6
    without compression; ``fmt='4'``: the v4 format, numeric and char only)."""
    import scipy.io

    if fmt == "4":
        for name, value in variables.items():
            if not isinstance(to_mat(value), np.ndarray) or to_mat(value).dtype == object \
                    or to_mat(value).dtype.names is not None:
                raise MatlabError("MATLAB:save:v4UnsupportedClass",
                                  f"Unable to save variable '{name}' in a version 4 MAT-file.")
        scipy.io.savemat(fh, {n: to_mat(v) for n, v in variables.items()}, format="4",
                         oned_as="column")
        return
    scipy.io.savemat(fh, {n: to_mat(v) for n, v in variables.items()},
                     do_compression=compress, oned_as="column", long_field_names=True)


# ------------------------------------------------------------------- read
def from_mat(arr: Any) -> Any:
    """A value read by scipy as a matfuse value."""
    from scipy.io.matlab import MatlabFunction, MatlabObject, MatlabOpaque

    if is_scipy_sparse(arr):
        return sparse_from_v5(arr)
    if not isinstance(arr, np.ndarray):
        return arr
    if isinstance(arr, (MatlabOpaque, MatlabFunction)):
        kind = "function_handle" if isinstance(arr, MatlabFunction) else "opaque object"
        raise MatlabError("MATLAB:load:unsupportedClass", f"Cannot load a MATLAB {kind}.")
    if isinstance(arr, MatlabObject):
        if arr.classname == "string" and arr.size == 1 and "strings" in (arr.dtype.names or ()):
            return _string_from_mat(arr.reshape(-1)[0])
        raise MatlabError("MATLAB:load:unsupportedClass",
                          f"Cannot load an object of class '{arr.classname}'.")
    if arr.dtype.names is not None:
        fields = list(arr.dtype.names)
        data = np.empty(arr.shape, dtype=object)
        for idx in np.ndindex(arr.shape):
            data[idx] = {f: from_mat(arr[idx][f]) for f in fields}
        return StructArray(fields, data)
    if arr.dtype == object:
        if arr.size and all(x is None for x in arr.reshape(-1)):
            # what SciPy reads for a struct without fields (a cell's elements are arrays)
            return StructArray([], np.array([{} for _ in range(arr.size)], dtype=object).reshape(arr.shape))
        data = np.empty(arr.shape, dtype=object)
        for idx in np.ndindex(arr.shape):
            data[idx] = from_mat(arr[idx])
        return CellArray(data)
    if arr.dtype.kind == "U":
        if arr.dtype != CHAR_DTYPE:
            arr = arr.astype(CHAR_DTYPE)
        return as_matlab_array(arr)
    return canonical(arr)


def _string_from_mat(record: Any) -> StringArray:
    texts = record["strings"]
    missing = np.asarray(record["missing"], dtype=bool)
    data = np.empty(texts.shape, dtype=object)
    for idx in np.ndindex(texts.shape):
        cell = from_mat(texts[idx])
        data[idx] = None if missing.size == texts.size and missing[idx] else \
            (to_str(cell) if cell.size else "")
    return StringArray(data)


def _keep_complex(typed: Any, raw: Any) -> Any:
    """SciPy's ``mat_dtype`` read (MATLAB classes, logicals kept) drops the
    imaginary part of complex arrays; ``raw`` is the same variable read
    without it.  Complex parts are taken from ``raw``, in ``typed``'s class."""
    if is_scipy_sparse(raw) and raw.dtype.kind == "c":
        return raw
    if not isinstance(typed, np.ndarray) or not isinstance(raw, np.ndarray):
        return typed
    if raw.dtype.kind == "c":
        return raw.astype(np.complex64 if typed.dtype == np.float32 else np.complex128)
    if typed.dtype.names is not None:
        for idx in np.ndindex(typed.shape):
            for f in typed.dtype.names:
                typed[idx][f] = _keep_complex(typed[idx][f], raw[idx][f])
    elif typed.dtype == object:
        for idx in np.ndindex(typed.shape):
            typed[idx] = _keep_complex(typed[idx], raw[idx])
    return typed


def _read_raw(fh: BinaryIO, mat_dtype: bool) -> dict[str, Any]:
    from scipy.io.matlab._mio5 import MatFile5Reader

    reader = MatFile5Reader(fh, squeeze_me=False, chars_as_strings=False,
                            struct_as_record=True, mat_dtype=mat_dtype)
    fh.seek(0)
    reader.initialize_read()
    reader.read_file_header()
    out: dict[str, Any] = {}
    while not reader.end_of_stream():
        hdr, next_position = reader.read_var_header()
        name = "" if hdr.name is None else hdr.name.decode("latin1")
        if name:
            out[name] = reader.read_var_array(hdr, True)
        fh.seek(next_position)
    return out


def read_v5(fh: BinaryIO, major: int, path: str,
            skip: Callable[[str, MatlabError], None] | None = None) -> dict[str, Any]:
    """All variables of a v4/v5/v7 MAT-file, in file order.  A variable of a
    class matfuse cannot read (MATLAB objects, function handles) raises, or
    is passed to ``skip`` and left out."""
    import warnings

    import scipy.io

    if major == 0:
        raw = scipy.io.loadmat(fh, squeeze_me=False, chars_as_strings=False)
        return {k: from_mat(v) for k, v in raw.items() if not k.startswith("__")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        typed = _read_raw(fh, True)
    raw = _read_raw(fh, False)
    out: dict[str, Any] = {}
    for name, value in typed.items():
        try:
            out[name] = from_mat(_keep_complex(value, raw[name]))
        except MatlabError as err:
            if skip is None or err.identifier != "MATLAB:load:unsupportedClass":
                raise
            skip(name, err)
    return out
