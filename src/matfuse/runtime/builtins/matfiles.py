"""MAT-files and ASCII data files: load and save.

MAT-files are written in the version 5/7 format through SciPy (readable by
MATLAB); v7.3 (HDF5) files are not supported.  Round-trips doubles, singles,
integers, logicals (top-level variables), char, complex, cells and structs.
``save -ascii`` writes numbers with ``%.7e`` (``-double``: ``%.15e``), each
preceded by three spaces, as MATLAB does; ``load`` of a non-.mat file reads
whitespace/comma separated numbers.
"""

from __future__ import annotations

import fnmatch
import os
import re
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    StringArray,
    StructArray,
    as_matlab_array,
    canonical,
    char_codes,
    class_of,
    to_array,
    to_str,
)


# ----------------------------------------------------------- value mapping
def to_mat(value: Any, name: str) -> Any:
    """A matfuse value as what scipy.io.savemat writes."""
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
            out[idx] = to_mat(value.data[idx], name)
        return out
    if t is StructArray:
        dtype = [(f, object) for f in value.fields]
        out = np.empty(value.shape, dtype=dtype)
        for idx in np.ndindex(value.shape):
            entry = value.data[idx]
            for f in value.fields:
                out[idx][f] = to_mat(entry[f], name)
        return out
    if t is StringArray:
        out = np.empty(value.shape, dtype=object)
        for idx in np.ndindex(value.shape):
            text = value.data[idx] or ""
            out[idx] = np.array([text]) if text else np.zeros((0, 0), dtype=CHAR_DTYPE)
        return out
    raise MatlabError("MATLAB:save:unsupportedClass",
                      f"Unable to save variable '{name}' of class '{class_of(value)}'.")


def _char_to_mat(value: np.ndarray) -> np.ndarray:
    """scipy writes an array of row strings as a char matrix (a U1 array
    would gain a trailing dimension)."""
    if value.size == 0:
        return np.zeros((0, 0), dtype=CHAR_DTYPE)
    rows = value.reshape(value.shape[0], -1, order="F")
    return np.array(["".join(row) for row in rows.tolist()])


def from_mat(arr: Any, logical: bool = False) -> Any:
    """A value read by scipy as a matfuse value."""
    if not isinstance(arr, np.ndarray):
        return arr
    if arr.dtype.names is not None:
        fields = list(arr.dtype.names)
        data = np.empty(arr.shape, dtype=object)
        for idx in np.ndindex(arr.shape):
            data[idx] = {f: from_mat(arr[idx][f]) for f in fields}
        return StructArray(fields, data)
    if arr.dtype == object:
        data = np.empty(arr.shape, dtype=object)
        for idx in np.ndindex(arr.shape):
            data[idx] = from_mat(arr[idx])
        return CellArray(data)
    if arr.dtype.kind == "U":
        if arr.dtype != CHAR_DTYPE:
            arr = arr.astype(CHAR_DTYPE)
        return as_matlab_array(arr)
    if logical:
        arr = arr.astype(bool)
    return canonical(arr)


def read_mat_file(path: str) -> dict[str, Any]:
    """All variables of a MAT-file (v4, v5, v7), in file order."""
    import scipy.io
    from scipy.io.matlab import matfile_version
    from scipy.io.matlab._mio5 import MatFile5Reader
    with open(path, "rb") as fh:
        try:
            major, _ = matfile_version(fh)
        except ValueError:
            raise MatlabError("MATLAB:load:notBinaryFile", f"Unable to read MAT-file {path}. Not a binary MAT-file.") from None
        if major == 2:
            raise MatlabError("MATLAB:load:unsupportedVersion",
                              f"Unable to read MAT-file {path}: version 7.3 (HDF5) files are not supported.")
        if major == 0:
            raw = scipy.io.loadmat(path, squeeze_me=False, chars_as_strings=False)
            return {k: from_mat(v) for k, v in raw.items() if not k.startswith("__")}
        reader = MatFile5Reader(fh, squeeze_me=False, chars_as_strings=False,
                                struct_as_record=True, mat_dtype=False)
        fh.seek(0)
        reader.initialize_read()
        reader.read_file_header()
        out: dict[str, Any] = {}
        while not reader.end_of_stream():
            hdr, next_position = reader.read_var_header()
            name = "" if hdr.name is None else hdr.name.decode("latin1")
            if name:
                out[name] = from_mat(reader.read_var_array(hdr, True), bool(hdr.is_logical))
            fh.seek(next_position)
        return out


# ----------------------------------------------------------------- ASCII
def _ascii_text(value: Any, name: str, double: bool, tabs: bool) -> str:
    arr = to_array(value) if type(value) in (float, bool, np.ndarray) else None
    if arr is None or arr.ndim > 2:
        raise MatlabError("MATLAB:save:asciiUnsupported",
                          f"Unable to write variable '{name}' as ASCII: only 2-D numeric, logical or char arrays can be saved.")
    if arr.dtype == CHAR_DTYPE:
        arr = char_codes(arr)
    arr = np.real(arr).astype(np.float64)
    sep = "\t" if tabs else "   "
    fmt = "{:.15e}" if double else "{:.7e}"
    lines = []
    for row in arr:
        parts = [fmt.format(v) for v in row]
        parts = [(sep if not p.startswith("-") or tabs else sep[:-1]) + p for p in parts]
        lines.append("".join(parts) + "\n")
    return "".join(lines)


def read_ascii_file(path: str) -> np.ndarray:
    rows: list[list[float]] = []
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            line = line.split("%", 1)[0].strip()
            if not line:
                continue
            try:
                rows.append([float(tok) for tok in re.split(r"[\s,]+", line) if tok])
            except ValueError:
                raise MatlabError("MATLAB:load:unableToReadAsciiFile",
                                  f"Unable to read file '{path}'. Input must be a MAT-file or an ASCII file "
                                  "containing numeric data with same number of columns in each row.") from None
    if not rows:
        return np.zeros((0, 0))
    if len({len(r) for r in rows}) != 1:
        raise MatlabError("MATLAB:load:unableToReadAsciiFile",
                          f"Unable to read file '{path}'. Input must be a MAT-file or an ASCII file "
                          "containing numeric data with same number of columns in each row.")
    return np.array(rows, dtype=np.float64)


# ------------------------------------------------------------------ save
def _select(names: list[str], patterns: list[str], fn: str) -> list[str]:
    if not patterns:
        return names
    chosen: list[str] = []
    for pat in patterns:
        hits = [n for n in names if fnmatch.fnmatchcase(n, pat)] if any(c in pat for c in "*?[") \
            else ([pat] if pat in names else [])
        if not hits:
            raise MatlabError(f"MATLAB:{fn}:variableNotFound", f"Variable '{pat}' not found.")
        chosen.extend(h for h in hits if h not in chosen)
    return chosen


@builtin("save", category="files", nargin=(0, None), nargout=(0, 0), needs_ctx=True)
def save(ctx: Any, *args: Any) -> Any:
    """Save workspace variables: save(filename, vars..., '-ascii', '-double',
    '-tabs', '-append', '-struct', s, fields...)."""
    import scipy.io
    words = []
    for a in args:
        if not is_text(a):
            raise MatlabError("MATLAB:save:badArgument", "Arguments to SAVE must be character vectors or strings.")
        words.append(to_str(a))
    options = {w.lower() for w in words if w.startswith("-")}
    plain = [w for w in words if not w.startswith("-")]
    filename = plain.pop(0) if plain else "matlab.mat"
    ascii_mode = "-ascii" in options
    if not ascii_mode and not os.path.splitext(filename)[1]:
        filename += ".mat"
    values: dict[str, Any] = {}
    if "-struct" in options:
        if not plain:
            raise MatlabError("MATLAB:save:missingStructName", "The -STRUCT option requires a structure name.")
        s = ctx.get_var(plain[0])
        if not isinstance(s, StructArray) or s.data.size != 1:
            raise MatlabError("MATLAB:save:structOptionNotScalarStruct",
                              "The argument to -STRUCT must be the name of a scalar structure variable.")
        entry = s.data.reshape(-1)[0]
        for f in _select(list(s.fields), plain[1:], "save"):
            values[f] = entry[f]
    else:
        for n in _select(list(ctx.variable_names()), plain, "save"):
            values[n] = ctx.get_var(n)
    try:
        if ascii_mode:
            text = "".join(_ascii_text(v, n, "-double" in options, "-tabs" in options) for n, v in values.items())
            with open(filename, "a" if "-append" in options else "w", encoding="utf-8") as fh:
                fh.write(text)
            return None
        merged: dict[str, Any] = {}
        if "-append" in options and os.path.exists(filename):
            merged.update(read_mat_file(filename))
        merged.update(values)
        scipy.io.savemat(filename, {n: to_mat(v, n) for n, v in merged.items()},
                         do_compression=True, oned_as="column", long_field_names=True)
    except OSError as err:
        raise MatlabError("MATLAB:save:couldNotWriteFile",
                          f"Unable to write file {filename}: {err.strerror}.") from None
    return None


# ------------------------------------------------------------------ load
def _resolve_load_path(filename: str) -> str:
    if os.path.isfile(filename):
        return filename
    if not os.path.splitext(filename)[1] and os.path.isfile(filename + ".mat"):
        return filename + ".mat"
    raise MatlabError("MATLAB:load:couldNotReadFile",
                      f"Unable to find file or directory '{filename}'.")


def _ascii_var_name(path: str) -> str:
    stem = os.path.splitext(os.path.basename(path))[0]
    name = re.sub(r"\W", "_", stem)
    return name if re.match(r"[A-Za-z]", name) else "X" + name


@builtin("load", category="files", nargin=(0, None), nargout=(0, 1), needs_ctx=True,
         wants_nargout=True)
def load(ctx: Any, *args: Any, nargout: int = 0) -> Any:
    """Load variables: S = load(filename, vars...) returns a struct; without an
    output the variables are defined in the caller's workspace."""
    words = [to_str(a) if is_text(a) else None for a in args]
    if any(w is None for w in words):
        raise MatlabError("MATLAB:load:badArgument", "Arguments to LOAD must be character vectors or strings.")
    options = {w.lower() for w in words if w.startswith("-")}
    plain = [w for w in words if not w.startswith("-")]
    filename = plain.pop(0) if plain else "matlab.mat"
    path = _resolve_load_path(filename)
    is_mat = "-mat" in options or (os.path.splitext(path)[1].lower() == ".mat" and "-ascii" not in options)
    if is_mat:
        variables = read_mat_file(path)
        names = _select(list(variables), plain, "load")
        variables = {n: variables[n] for n in names}
        if nargout:
            return StructArray.scalar(variables)
        for n, v in variables.items():
            ctx.set_var(n, v)
        return None
    data = read_ascii_file(path)
    if nargout:
        return canonical(data)
    ctx.set_var(_ascii_var_name(path), canonical(data))
    return None
