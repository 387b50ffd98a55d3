"""Reading formatted data from text: sscanf, textscan.

``sscanf(str, format, size)`` applies the format repeatedly until the text
or the format fails, as C's scanf: ``%d %i %u %f %e %g %x %o %s %c`` with
widths and ``%*`` (skip), whitespace in the format matching any run of
whitespace, other characters matching themselves. Numbers come back as a
double column (filled column-wise into ``size``); when every conversion is
``%s``/``%c`` the result is a char row. Outputs ``[A, count, errmsg,
nextindex]``.

``textscan(str_or_fid, format, N, Name, Value)`` reads columns (the field
rules are in ``_textscan_reader``): numeric conversions give numeric
columns of their class, ``%s``/``%q``/``%[...]`` cell columns of text,
``%c`` a char array; returns a 1-by-nformat cell array.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.builtins._text_args import make_char
from matfuse.runtime.builtins._textscan_reader import NUMERIC_CLASS, Conversion, Reader, parse_format
from matfuse.runtime.builtins._textscan_rows import columns_of_first_line, read_options, scan_rows, skip_header
from matfuse.runtime.builtins.files import get_file
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import CHAR_DTYPE, CellArray, canonical, class_of, is_char, to_array, to_str

_SPEC = re.compile(r"%(\*?)(\d*)(?:\.\d+)?(l|h)?([diufegxocs%]|\[[^\]]*\])")
_NUMBER = {
    "d": r"[+-]?\d+", "i": r"[+-]?(?:0[xX][0-9a-fA-F]+|\d+)", "u": r"[+-]?\d+",
    "f": r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[iI]nf|NaN|nan)",
    "x": r"[+-]?(?:0[xX])?[0-9a-fA-F]+", "o": r"[+-]?[0-7]+",
}
_NUMBER["e"] = _NUMBER["g"] = _NUMBER["f"]


def _tokens(fmt: str) -> list[tuple[str, Any]]:
    """('space'|'literal'|'spec', payload) pieces of a scanf format."""
    out: list[tuple[str, Any]] = []
    k = 0
    while k < len(fmt):
        c = fmt[k]
        if c.isspace():
            while k < len(fmt) and fmt[k].isspace():
                k += 1
            out.append(("space", None))
            continue
        if c == "%":
            m = _SPEC.match(fmt, k)
            if m is None:
                raise MatlabError("MATLAB:sscanf:invalidFormat", "Invalid format.")
            if m.group(4) == "%":
                out.append(("literal", "%"))
            else:
                out.append(("spec", (bool(m.group(1)), int(m.group(2)) if m.group(2) else None, m.group(4))))
            k = m.end()
            continue
        out.append(("literal", c))
        k += 1
    return out


def _convert(text: str, pos: int, skip: bool, width: int | None, conv: str
             ) -> tuple[list[float] | None, int, bool]:
    """One conversion at pos: (values or None on failure, new pos, is_text)."""
    if conv != "c":
        while pos < len(text) and text[pos].isspace():
            pos += 1
    limit = len(text) if width is None else min(len(text), pos + width)
    segment = text[pos:limit]
    if conv == "c":
        n = width or 1
        piece = text[pos:pos + n]
        if not piece:
            return None, pos, True
        return [float(ord(ch)) for ch in piece], pos + len(piece), True
    if conv == "s":
        m = re.match(r"\S+", segment)
        if not m:
            return None, pos, True
        return [float(ord(ch)) for ch in m.group(0)], pos + m.end(), True
    if conv.startswith("["):
        body = conv[1:-1]
        m = re.match(f"[{body}]+", segment)
        if not m:
            return None, pos, True
        return [float(ord(ch)) for ch in m.group(0)], pos + m.end(), True
    m = re.match(_NUMBER[conv], segment)
    if not m:
        return None, pos, False
    token = m.group(0)
    if conv == "x":
        value = float(int(token, 16))
    elif conv == "o":
        value = float(int(token, 8))
    elif conv == "i" and token.lstrip("+-").lower().startswith("0x"):
        value = float(int(token, 16))
    else:
        value = float(token)
    return [value], pos + m.end(), False


def scan(text: str, fmt: str, limit: int | None = None) -> tuple[list[float], int, bool, int, str]:
    """Apply fmt repeatedly: (values, conversions done, all text, next index, error)."""
    pieces = _tokens(fmt)
    values: list[float] = []
    count = 0
    pos = 0
    all_text = True
    any_spec = any(kind == "spec" for kind, _ in pieces)
    message = ""
    while pos < len(text) and any_spec:
        start = pos
        for kind, payload in pieces:
            if limit is not None and len(values) >= limit:
                break
            if kind == "space":
                while pos < len(text) and text[pos].isspace():
                    pos += 1
            elif kind == "literal":
                if text.startswith(payload, pos):
                    pos += len(payload)
                else:
                    return values, count, all_text and count > 0, pos + 1, message
            else:
                skip, width, conv = payload
                got, pos, is_char = _convert(text, pos, skip, width, conv)
                if got is None:
                    if pos < len(text):
                        message = "Matching failure in format."
                    return values, count, all_text and count > 0, pos + 1, message
                if not skip:
                    values.extend(got)
                    count += 1
                    all_text = all_text and is_char
        if pos == start or (limit is not None and len(values) >= limit):
            break
    return values, count, all_text and count > 0, pos + 1, message


@builtin("sscanf", category="strings", nargin=(2, 3), nargout=(0, 4), wants_nargout=True)
def sscanf(s: Any, fmt: Any, size: Any = None, nargout: int = 1) -> Any:
    """Read formatted data from text: A = sscanf(str, format, size)."""
    if not is_text(s) and not (isinstance(s, np.ndarray) and s.dtype.kind == "U"):
        raise MatlabError("MATLAB:sscanf:invalidFirstInput", "First argument must be a text scalar.")
    if not is_text(fmt):
        raise MatlabError("MATLAB:sscanf:invalidFormat", "Format must be a text scalar.")
    text = to_str(s) if is_text(s) else "".join(np.asarray(s).reshape(-1, order="F").tolist())
    shape: tuple[int, int] | None = None
    limit = None
    if size is not None:
        dims = to_array(size).astype(np.float64).reshape(-1)
        if dims.size == 1:
            limit = None if np.isinf(dims[0]) else int(dims[0])
        else:
            rows = int(dims[0])
            limit = None if np.isinf(dims[1]) else rows * int(dims[1])
            shape = (rows, -1)
    values, count, all_text, next_index, message = scan(text, to_str(fmt), limit)
    if all_text:
        out: Any = make_char("".join(chr(int(v)) for v in values))
    else:
        arr = np.array(values, dtype=np.float64)
        if shape is not None:
            rows = shape[0]
            cols = -(-arr.size // rows) if rows else 0
            padded = np.zeros(rows * cols)
            padded[:arr.size] = arr
            arr = padded.reshape((rows, cols), order="F")
        else:
            arr = arr.reshape(-1, 1)
        out = canonical(arr) if arr.size else np.zeros((0, 1) if shape is None else arr.shape)
    results = [out, float(count), make_char(message), float(next_index)]
    return tuple(results[:nargout]) if nargout > 1 else results[0]


def _textscan_options(args: list[Any]) -> tuple[int | None, dict[str, Any]]:
    count = None
    if args and not is_text(args[0]):
        n = float(to_array(args.pop(0)).reshape(-1)[0])
        count = None if np.isinf(n) or n < 0 else int(n)
    if len(args) % 2:
        raise MatlabError("MATLAB:textscan:InvalidNameValue", "Name-value arguments must come in pairs.")
    opts: dict[str, Any] = {}
    for name, value in zip(args[::2], args[1::2]):
        if not is_text(name):
            raise MatlabError("MATLAB:textscan:InvalidNameValue", "Option names must be text.")
        opts[to_str(name).lower()] = value
    return count, opts


def _flag(v: Any) -> bool:
    return bool(to_array(v).reshape(-1)[0]) if to_array(v).size else False


def _number(v: Any) -> float:
    arr = to_array(v).reshape(-1)
    if arr.size != 1:
        raise MatlabError("MATLAB:textscan:InvalidOption", "Expected a numeric scalar option value.")
    return float(arr[0].real)


_INT_LIMITS = {name: (np.iinfo(name).min, np.iinfo(name).max)
               for name in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")}


def _numeric_column(values: list[Any], cls: str) -> np.ndarray:
    if cls in _INT_LIMITS:
        lo, hi = _INT_LIMITS[cls]
        out = np.zeros((len(values), 1), dtype=cls)
        for k, v in enumerate(values):
            x = float(np.real(v))
            if np.isnan(x):
                continue
            out[k, 0] = lo if x <= lo else hi if x >= hi else int(np.round(x))
        return out
    arr = np.array(values, dtype=np.complex128 if any(isinstance(v, complex) for v in values)
                   else np.float64).reshape(-1, 1)
    if cls == "single":
        arr = arr.astype(np.complex64 if arr.dtype.kind == "c" else np.float32)
    return arr


def _output(conv: Any, values: list[Any]) -> Any:
    if conv.kind in NUMERIC_CLASS:
        return canonical(_numeric_column(values, NUMERIC_CLASS[conv.kind]))
    if conv.kind == "c":
        width = max([len(v) for v in values], default=conv.width or 1)
        rows = [v.ljust(width) for v in values]
        arr = np.array([list(r) for r in rows], dtype=CHAR_DTYPE) if rows else np.zeros((0, width), dtype=CHAR_DTYPE)
        return arr.reshape(len(rows), width)
    return CellArray.from_list([make_char(v) if v else np.zeros((0, 0), dtype=CHAR_DTYPE) for v in values],
                               (len(values), 1))


def _collected(outputs: list[Any]) -> list[Any]:
    """CollectOutput: neighbouring outputs of one class joined side by side."""
    groups: list[list[Any]] = []
    for out in outputs:
        if groups and class_of(groups[-1][0]) == class_of(out) and not is_char(out):
            groups[-1].append(out)
        else:
            groups.append([out])
    joined = []
    for group in groups:
        if len(group) == 1:
            joined.append(group[0])
        elif isinstance(group[0], CellArray):
            data = np.concatenate([g.data for g in group], axis=1)
            joined.append(CellArray(data))
        else:
            joined.append(canonical(np.concatenate([to_array(g) for g in group], axis=1)))
    return joined


@builtin("textscan", category="files", nargin=(1, None), nargout=(0, 2), wants_nargout=True)
def textscan(source: Any, fmt: Any = None, *args: Any, nargout: int = 1) -> Any:
    """Read columns of formatted text from text or an open file:
    C = textscan(str, '%s %f', N, 'Delimiter', ',', 'HeaderLines', 1, ...);
    [C, position] = textscan(...) also gives the characters read."""
    if is_char(source):       # a char matrix reads column by column
        text = "".join(source.reshape(-1, order="F").tolist())
    elif is_text(source):
        text = to_str(source)
    else:
        entry = get_file(source)
        text = entry.handle.read().decode("utf-8", errors="replace")
        entry.at_eof = True
    count, pairs = _textscan_options(list(args))
    options, delims_given, collect = read_options(pairs, to_str, is_text, _flag, _number)
    reader = Reader(text, options, delims_given)
    skip_header(reader, options.header_lines)
    spec = to_str(fmt) if fmt is not None else "%f"
    items = parse_format(spec)
    if not any(isinstance(i, Conversion) for i in items):
        if spec.strip():
            raise MatlabError("MATLAB:textscan:BadFormatString",
                              f"Unable to read the format '{spec}': it has no conversion.")
        items = [Conversion("f") for _ in range(columns_of_first_line(reader))]
    columns, convs = scan_rows(reader, items, count)
    outputs = [_output(conv, col) for conv, col in zip(convs, columns)]
    if collect:
        outputs = _collected(outputs)
    cell = CellArray.from_list(outputs, (1, len(outputs)))
    return (cell, float(reader.pos)) if nargout > 1 else cell
