"""MAT-files and ASCII data files: load and save.

MAT-files are written in the version 7 format through SciPy (``-v6``: without
compression) or, with ``-v7.3``, in MATLAB's HDF5 layout through h5py (see
``_mat_v5`` and ``_mat_v73``).  Every class round-trips: double, single,
integers, logical, char, complex, cell, struct (arrays too) and string.
Saves are atomic: every variable is checked first, the file is written to a
temporary file in the same folder and renamed over the target, so a failed
save leaves the old file as it was.
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
from matfuse.runtime.atomic_files import replace_file, replace_file_by_path
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.builtins._mat_v5 import read_v5, write_v5
from matfuse.runtime.builtins._mat_v73 import is_v73, read_v73, write_v73
from matfuse.runtime.builtins._mat_values import check_saveable, is_valid_name
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import (
    CHAR_DTYPE,
    StructArray,
    canonical,
    char_codes,
    to_array,
    to_str,
)


# ------------------------------------------------------------- MAT-files
def read_mat_file(path: str, skip: Any = None) -> dict[str, Any]:
    """All variables of a MAT-file (v4, v5, v7, v7.3), in file order.
    ``skip(name, error)`` receives variables of classes matfuse cannot read
    (without it they are errors: ``-append`` must not drop them)."""
    from scipy.io.matlab import matfile_version

    with open(path, "rb") as fh:
        head = fh.read(128)
        fh.seek(0)
        if is_v73(head):
            return read_v73(path, skip)
        try:
            major, _ = matfile_version(fh)
        except ValueError:
            raise MatlabError("MATLAB:load:notBinaryFile",
                              f"Unable to read MAT-file {path}. Not a binary MAT-file.") from None
        if major == 2:
            return read_v73(path, skip)
        return read_v5(fh, major, path, skip)


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
def _select(names: list[str], patterns: list[str], fn: str, regexp: bool = False) -> list[str]:
    """The names ``patterns`` pick: exact names and ``*`` wildcards (a name
    that matches nothing is an error), or with ``-regexp`` regular
    expressions matched anywhere in the name."""
    if not patterns:
        return names
    chosen: list[str] = []
    if regexp:
        for pat in patterns:
            try:
                rx = re.compile(pat)
            except re.error:
                raise MatlabError(f"MATLAB:{fn}:invalidRegexp", f"Invalid regular expression '{pat}'.") from None
            chosen.extend(n for n in names if rx.search(n) and n not in chosen)
        return chosen
    for pat in patterns:
        hits = [n for n in names if fnmatch.fnmatchcase(n, pat)] if any(c in pat for c in "*?[") \
            else ([pat] if pat in names else [])
        if not hits:
            raise MatlabError(f"MATLAB:{fn}:variableNotFound", f"Variable '{pat}' not found.")
        chosen.extend(h for h in hits if h not in chosen)
    return chosen


_SAVE_OPTIONS = {"-ascii", "-double", "-tabs", "-append", "-struct", "-mat", "-nocompression", "-regexp",
                 "-compress", "-v4", "-v6", "-v7", "-v7.3"}


def _save_words(args: tuple[Any, ...]) -> tuple[list[str], set[str]]:
    """The plain words and the (lower-case) options of a save call; an
    unknown option is an error before anything is written."""
    words = []
    for a in args:
        if not is_text(a):
            raise MatlabError("MATLAB:save:badArgument", "Arguments to SAVE must be character vectors or strings.")
        words.append(to_str(a))
    options = {w.lower() for w in words if w.startswith("-")}
    for option in sorted(options):
        if option not in _SAVE_OPTIONS:
            raise MatlabError("MATLAB:save:unknownOption", f"Unknown option '{option}'.")
    if len(options & {"-v4", "-v6", "-v7", "-v7.3"}) > 1:
        raise MatlabError("MATLAB:save:multipleVersions", "Specify only one MAT-file version.")
    if "-ascii" in options and options & {"-v4", "-v6", "-v7", "-v7.3", "-mat"}:
        raise MatlabError("MATLAB:save:asciiWithVersion", "The -ascii option cannot be combined with a MAT-file version.")
    return [w for w in words if not w.startswith("-")], options


def _save_values(ctx: Any, plain: list[str], options: set[str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    if "-struct" in options:
        if not plain:
            raise MatlabError("MATLAB:save:missingStructName", "The -STRUCT option requires a structure name.")
        s = ctx.get_var(plain[0])
        if not isinstance(s, StructArray) or s.data.size != 1:
            raise MatlabError("MATLAB:save:structOptionNotScalarStruct",
                              "The argument to -STRUCT must be the name of a scalar structure variable.")
        entry = s.data.reshape(-1)[0]
        for f in _select(list(s.fields), plain[1:], "save", "-regexp" in options):
            values[f] = entry[f]
    else:
        for n in _select(list(ctx.variable_names()), plain, "save", "-regexp" in options):
            values[n] = ctx.get_var(n)
    return values


def _existing_version(path: str) -> str:
    """``-append`` keeps the version of the file it appends to."""
    with open(path, "rb") as fh:
        return "-v7.3" if is_v73(fh.read(128)) else "-v7"


@builtin("save", category="files", nargin=(0, None), nargout=(0, 0), needs_ctx=True)
def save(ctx: Any, *args: Any) -> Any:
    """Save workspace variables to a MAT-file: save(filename, vars..., options).

    Options: -v7 (default), -v6, -v4, -v7.3 (HDF5; needs matfuse[hdf5]),
    -append, -struct s fields..., -regexp, -ascii with -double and -tabs,
    -nocompression.  Unknown options are
    errors.  The file is replaced atomically: a failed save keeps the old file.
    """
    plain, options = _save_words(args)
    filename = plain.pop(0) if plain else "matlab.mat"
    ascii_mode = "-ascii" in options
    if not ascii_mode and not os.path.splitext(filename)[1]:
        filename += ".mat"
    values = _save_values(ctx, plain, options)
    try:
        if ascii_mode:
            text = "".join(_ascii_text(v, n, "-double" in options, "-tabs" in options)
                           for n, v in values.items())
            old = ""
            if "-append" in options and os.path.isfile(filename):
                with open(filename, encoding="utf-8", errors="surrogateescape") as fh:
                    old = fh.read()
            data = (old + text).encode("utf-8", errors="surrogateescape")
            replace_file(filename, lambda fh: fh.write(data))
            return None
        merged: dict[str, Any] = {}
        version = "-v7.3" if "-v7.3" in options else "-v7"
        if "-append" in options and os.path.exists(filename):
            merged.update(read_mat_file(filename))
            version = _existing_version(filename)
        merged.update(values)
        for name, value in merged.items():
            if not is_valid_name(name):
                raise MatlabError("MATLAB:save:invalidVariableName", f"Invalid variable name '{name}'.")
            check_saveable(value, name)
        if version == "-v7.3":
            replace_file_by_path(filename, lambda temp: write_v73(temp, merged))
        else:
            compress = not options & {"-v6", "-v4", "-nocompression"}
            fmt = "4" if "-v4" in options else "5"
            replace_file(filename, lambda fh: write_v5(fh, merged, compress, fmt))
    except OSError as err:
        raise write_error("save", filename, err) from None
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
    output the variables are defined in the caller's workspace.  Options:
    -mat, -ascii, -regexp (the names are regular expressions)."""
    words = [to_str(a) if is_text(a) else None for a in args]
    if any(w is None for w in words):
        raise MatlabError("MATLAB:load:badArgument", "Arguments to LOAD must be character vectors or strings.")
    options = {w.lower() for w in words if w.startswith("-")}
    for option in sorted(options - {"-mat", "-ascii", "-regexp"}):
        raise MatlabError("MATLAB:load:unknownOption", f"Unknown option '{option}'.")
    plain = [w for w in words if not w.startswith("-")]
    filename = plain.pop(0) if plain else "matlab.mat"
    path = _resolve_load_path(filename)
    is_mat = "-mat" in options or (os.path.splitext(path)[1].lower() == ".mat" and "-ascii" not in options)
    if is_mat:
        def skip(name: str, err: MatlabError) -> None:
            ctx.write_err(f"Warning: Variable '{name}' was not loaded: {err.message}\n")

        variables = read_mat_file(path, skip)
        names = _select(list(variables), plain, "load", "-regexp" in options)
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


def write_error(fn: str, filename: str, err: OSError) -> MatlabError:
    """MATLAB's error for a file that could not be written."""
    reason = err.strerror or "cannot write file"
    return MatlabError(f"MATLAB:{fn}:couldNotWriteFile", f"Unable to write file {filename}: {reason}.")
