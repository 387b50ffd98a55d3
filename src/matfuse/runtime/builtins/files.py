"""Low-level file I/O: fopen fclose fgetl fgets fread fwrite feof frewind ftell
fseek fileread, and ``write_fid`` used by fprintf.

Open files live in a process-wide table keyed by MATLAB file ids (>= 3;
0, 1, 2 are stdin, stdout, stderr).  Files are opened in binary mode; text
is encoded and decoded as UTF-8 (MATLAB's default on Linux).
"""

from __future__ import annotations

import codecs
import os
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import (
    int_value,
    is_text,
    numeric_values,
    scalar_value,
    text_arg,
)
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import (
    CHAR_DTYPE,
    canonical,
    char_array,
    char_codes,
    codes_to_char,
    to_array,
    to_str,
)

BAD_FID = "Invalid file identifier. Use fopen to generate a valid file identifier."
_MODES = {"r": "rb", "w": "wb", "a": "ab", "r+": "r+b", "w+": "w+b", "a+": "a+b"}


@dataclass
class OpenFile:
    name: str
    permission: str
    handle: BinaryIO
    at_eof: bool = False


OPEN_FILES: dict[int, OpenFile] = {}


def _bad_fid() -> MatlabError:
    return MatlabError("MATLAB:badfid_mx", BAD_FID)


def get_file(fid: Any) -> OpenFile:
    """The open file for a MATLAB file id, or MATLAB's invalid-fid error."""
    try:
        key = int_value(fid, "fid")
    except MatlabError:
        raise _bad_fid() from None
    entry = OPEN_FILES.get(key)
    if entry is None:
        raise _bad_fid()
    return entry


def write_fid(fid: int, text: str) -> None:
    """Append ``text`` to open file ``fid`` (>= 3); used by fprintf."""
    entry = OPEN_FILES.get(int(fid))
    if entry is None:
        raise _bad_fid()
    if not entry.handle.writable():
        return   # MATLAB silently writes nothing to a read-only file
    try:
        entry.handle.write(text.encode("utf-8"))
    except OSError as err:
        raise _write_failed("fprintf", entry, err) from None


def _write_failed(fn: str, entry: OpenFile, err: OSError) -> MatlabError:
    """A failed write (disk full, I/O error) as a MATLAB error."""
    return MatlabError(f"MATLAB:{fn}:writeFailed",
                       f"Unable to write to file '{entry.name}': {err.strerror or 'write failed'}.")


def _close(entry: OpenFile) -> bool:
    """Close a file; False when flushing its last data failed (disk full)."""
    try:
        entry.handle.close()
        return True
    except OSError:
        return False


def _next_fid() -> int:
    fid = 3
    while fid in OPEN_FILES:
        fid += 1
    return fid


@builtin("fopen", category="files", nargin=(1, 4), nargout=(0, 4), wants_nargout=True)
def fopen(name: Any, permission: Any = None, *_: Any, nargout: int = 1) -> Any:
    """Open a file: [fid, msg] = fopen(filename, permission); fid is -1 on failure.

    ``fopen('all')`` lists open ids; ``fopen(fid)`` returns [filename, permission].
    """
    if not is_text(name):
        entry = get_file(name)
        outs = (char_array(entry.name), char_array(entry.permission), char_array("ieee-le"),
                char_array("UTF-8"))
        return outs[:max(1, nargout)] if nargout > 1 else outs[0]
    filename = to_str(name)
    if filename.lower() == "all" and permission is None:
        ids = sorted(OPEN_FILES)
        return canonical(np.array(ids, dtype=np.float64).reshape(1, -1)) if ids else np.zeros((1, 0))
    perm = "r" if permission is None else text_arg(permission, "fopen", "permission")
    mode_key = perm.replace("t", "").replace("b", "")
    if mode_key not in _MODES:
        raise MatlabError("MATLAB:fopen:InvalidPermission", "Invalid permission.")
    try:
        handle = open(os.path.expanduser(filename), _MODES[mode_key])
    except OSError as err:
        message = err.strerror or "Cannot open file."
        return (-1.0, char_array(message)) if nargout > 1 else -1.0
    fid = _next_fid()
    OPEN_FILES[fid] = OpenFile(filename, perm, handle)
    return (float(fid), np.zeros((0, 0), dtype=CHAR_DTYPE)) if nargout > 1 else float(fid)


@builtin("fclose", category="files", nargin=(1, 1), nargout=(0, 1))
def fclose(fid: Any) -> Any:
    """Close a file (or 'all'); returns 0, or -1 when its buffered data
    could not be written (disk full)."""
    if is_text(fid):
        if to_str(fid).lower() != "all":
            raise _bad_fid()
        closed = [_close(entry) for entry in OPEN_FILES.values()]
        OPEN_FILES.clear()
        return 0.0 if all(closed) else -1.0
    entry = get_file(fid)
    del OPEN_FILES[int_value(fid, "fclose")]
    return 0.0 if _close(entry) else -1.0


def _readable(entry: OpenFile) -> bool:
    return entry.handle.readable()


def _read_line(entry: OpenFile, keep_newline: bool, limit: int = -1) -> Any:
    if not _readable(entry):
        return -1.0   # MATLAB reads nothing from a write-only file
    line = entry.handle.readline(limit)
    if not line:
        entry.at_eof = True
        return -1.0
    if not line.endswith(b"\n") and (limit < 0 or len(line) < limit):
        entry.at_eof = True
    text = line.decode("utf-8", errors="replace")
    if not keep_newline:
        text = text.rstrip("\n").rstrip("\r") if text.endswith("\n") else text
    return char_array(text) if text else np.zeros((1, 0), dtype=CHAR_DTYPE)


@builtin("fgetl", category="files", nargin=(1, 1))
def fgetl(fid: Any) -> Any:
    """Next line without the newline; -1 at end of file."""
    return _read_line(get_file(fid), False)


@builtin("fgets", category="files", nargin=(1, 2))
def fgets(fid: Any, nchar: Any = None) -> Any:
    """Next line including the newline (at most nchar bytes); -1 at end of file."""
    limit = -1 if nchar is None else max(int(scalar_value(nchar, "fgets")), 0)
    return _read_line(get_file(fid), True, limit)


_PRECISIONS = {
    "uint8": np.uint8, "uchar": np.uint8, "unsigned char": np.uint8, "int8": np.int8,
    "schar": np.int8, "signed char": np.int8, "char": np.uint8, "char*1": np.uint8,
    "uint16": np.uint16, "int16": np.int16, "uint32": np.uint32, "int32": np.int32,
    "uint64": np.uint64, "int64": np.int64, "single": np.float32, "float32": np.float32,
    "float": np.float32, "double": np.float64, "float64": np.float64,
    "ushort": np.uint16, "short": np.int16, "uint": np.uint32, "int": np.int32,
    "ulong": np.uint64, "long": np.int64,
}


def _parse_precision(text: str) -> tuple[np.dtype, str]:
    """(source dtype, output class name or 'double' / 'char')."""
    spec = text.strip()
    if spec.startswith("*"):
        src = spec[1:]
        return np.dtype(_lookup_precision(src)), ("char" if src.startswith("char") else src)
    if "=>" in spec:
        src, dst = (s.strip() for s in spec.split("=>"))
        return np.dtype(_lookup_precision(src)), dst
    return np.dtype(_lookup_precision(spec)), "double"


def _lookup_precision(name: str) -> Any:
    key = name.lower()
    if key not in _PRECISIONS:
        raise MatlabError("MATLAB:fread:invalidPrecision", f"Invalid precision '{name}'.")
    return _PRECISIONS[key]


@builtin("fread", category="files", nargin=(1, 5), nargout=(0, 2), wants_nargout=True)
def fread(fid: Any, size: Any = None, precision: Any = None, *_: Any, nargout: int = 1) -> Any:
    """Read binary data: [A, count] = fread(fid, size, precision) (column vector by default)."""
    entry = get_file(fid)
    if precision is None and size is not None and is_text(size):
        size, precision = None, size   # fread(fid, precision)
    src, out_class = _parse_precision(to_str(precision) if precision is not None else "uint8")
    dims = [np.inf] if size is None else list(numeric_values(size).astype(np.float64).reshape(-1))
    if not dims or len(dims) > 2 or any(d < 0 for d in dims) or any(np.isinf(d) for d in dims[:-1]):
        raise MatlabError("MATLAB:fread:invalidSize", "Invalid size.")
    want = np.inf if np.isinf(dims[-1]) else int(np.prod(dims))
    if len(dims) == 2 and np.isinf(dims[1]):
        want = np.inf
    nbytes = -1 if np.isinf(want) else int(want) * src.itemsize
    if not _readable(entry):
        raw = b""
    else:
        raw = entry.handle.read(nbytes) if nbytes >= 0 else entry.handle.read()
    if nbytes < 0 or len(raw) < nbytes:
        entry.at_eof = True
    count = len(raw) // src.itemsize
    values = np.frombuffer(raw[: count * src.itemsize], dtype=src.newbyteorder("<"))
    if len(dims) == 2:
        rows = int(dims[0])
        cols = -(-count // rows) if rows else 0
        padded = np.zeros(rows * cols, dtype=values.dtype)
        padded[:count] = values
        shaped = padded.reshape((rows, cols), order="F")
    else:
        shaped = values.reshape(-1, 1)
    if out_class == "char":
        result: Any = codes_to_char(shaped.astype(np.uint32))
    elif out_class in ("double", "float64"):
        result = shaped.astype(np.float64)
    else:
        result = shaped.astype(_lookup_precision(out_class))
    result = canonical(result if result.size else np.zeros((0, 0) if len(dims) == 1 else result.shape,
                                                              dtype=result.dtype))
    return (result, float(count)) if nargout > 1 else result


@builtin("fwrite", category="files", nargin=(2, 5), nargout=(0, 1))
def fwrite(fid: Any, data: Any, precision: Any = None, *_: Any) -> Any:
    """Write binary data column-major: count = fwrite(fid, A, precision)."""
    entry = get_file(fid)
    arr = to_array(data)
    if arr.dtype == CHAR_DTYPE:
        arr = char_codes(arr)
    src, _ = _parse_precision(to_str(precision) if precision is not None else "uint8")
    flat = arr.reshape(-1, order="F")
    if src.kind in "iu":
        info = np.iinfo(src)
        work = flat.astype(np.float64)
        work = np.clip(np.where(work >= 0, np.floor(work + 0.5), np.ceil(work - 0.5)), info.min, info.max)
        out = work.astype(src)
    else:
        out = flat.astype(src)
    if not entry.handle.writable():
        return 0.0   # MATLAB writes nothing to a read-only file
    try:
        entry.handle.write(out.astype(src.newbyteorder("<")).tobytes())
    except OSError as err:
        raise _write_failed("fwrite", entry, err) from None
    return float(flat.size)


@builtin("feof", category="files", nargin=(1, 1))
def feof(fid: Any) -> Any:
    """True once a read has reached the end of the file."""
    entry = get_file(fid)
    # MATLAB's loop `while ~feof(fid), fgetl(fid); end` stops after the last
    # line even when it ends in a newline: at the end position counts as EOF.
    if entry.at_eof:
        return True
    entry.handle.flush()
    size = os.fstat(entry.handle.fileno()).st_size
    return bool(size > 0 and entry.handle.tell() >= size)


@builtin("frewind", category="files", nargin=(1, 1), nargout=(0, 0))
def frewind(fid: Any) -> Any:
    """Move to the start of the file."""
    entry = get_file(fid)
    entry.handle.seek(0)
    entry.at_eof = False
    return None


@builtin("ftell", category="files", nargin=(1, 1))
def ftell(fid: Any) -> Any:
    """Current byte position."""
    return float(get_file(fid).handle.tell())


@builtin("fseek", category="files", nargin=(3, 3))
def fseek(fid: Any, offset: Any, origin: Any) -> Any:
    """Move to a byte position: origin 'bof'/-1, 'cof'/0, 'eof'/1; 0 or -1."""
    entry = get_file(fid)
    if is_text(origin):
        where = {"bof": 0, "cof": 1, "eof": 2}.get(to_str(origin).lower())
    else:
        where = {-1: 0, 0: 1, 1: 2}.get(int(scalar_value(origin, "fseek")))
    if where is None:
        raise MatlabError("MATLAB:fseek:invalidOrigin", "Origin must be 'bof', 'cof', 'eof', -1, 0, or 1.")
    target = int(scalar_value(offset, "fseek"))
    base = {0: 0, 1: entry.handle.tell(), 2: os.fstat(entry.handle.fileno()).st_size}[where]
    if base + target < 0:
        return -1.0
    entry.handle.seek(base + target)
    entry.at_eof = False
    return 0.0


@builtin("fileread", category="files", nargin=(1, 3))
def fileread(name: Any, *options: Any) -> Any:
    """Whole file contents as a char row vector: fileread(filename,
    'Encoding', enc) (default UTF-8; bytes that do not decode become U+FFFD)."""
    filename = text_arg(name, "fileread", "file name")
    encoding = "utf-8"
    if options:
        if len(options) != 2 or not is_text(options[0]) or to_str(options[0]).lower() != "encoding":
            raise MatlabError("MATLAB:fileread:InvalidOption", "Expected the option 'Encoding' and its value.")
        encoding = text_arg(options[1], "fileread", "encoding")
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise MatlabError("MATLAB:fileread:UnsupportedEncoding",
                              f"Unsupported encoding '{encoding}'.") from None
    try:
        with open(os.path.expanduser(filename), "rb") as fh:
            text = fh.read().decode(encoding, errors="replace")
    except OSError:
        raise MatlabError("MATLAB:fileread:cannotOpenFile",
                          f"Could not open file {filename}. No such file or directory.") from None
    return char_array(text) if text else np.zeros((1, 0), dtype=CHAR_DTYPE)
