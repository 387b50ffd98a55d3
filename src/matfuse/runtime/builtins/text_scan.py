"""Reading formatted data from text: sscanf, textscan (basic).

``sscanf(str, format, size)`` applies the format repeatedly until the text
or the format fails, as C's scanf: ``%d %i %u %f %e %g %x %o %s %c`` with
widths and ``%*`` (skip), whitespace in the format matching any run of
whitespace, other characters matching themselves. Numbers come back as a
double column (filled column-wise into ``size``); when every conversion is
``%s``/``%c`` the result is a char row. Outputs ``[A, count, errmsg,
nextindex]``.

``textscan(str_or_fid, format, N, 'Delimiter', d, 'HeaderLines', k)``
reads columns: ``%f %d %n %u`` give numeric columns, ``%s``/``%q`` cell
columns of text; returns a 1-by-nformat cell array.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.builtins._text_args import make_char
from matfuse.runtime.builtins.files import get_file
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import CellArray, canonical, to_array, to_str

_SPEC = re.compile(r"%(\*?)(\d*)(?:\.\d+)?(l|h)?([diufegxocs%]|\[[^\]]*\])")
# textscan's conversions: scanf's plus %q (quoted text), %n and the
# width-suffixed integer and float classes (%d8 ... %u64, %f32, %f64).
_TEXTSCAN_SPEC = re.compile(r"%(\*?)(\d*)(?:\.\d+)?()((?:[du](?:8|16|32|64)?|f(?:32|64)?)|[negxocsq%]|\[[^\]]*\])")
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
    opts: dict[str, Any] = {}
    for name, value in zip(args[::2], args[1::2]):
        opts[to_str(name).lower()] = value
    return count, opts


@builtin("textscan", category="files", nargin=(1, None))
def textscan(source: Any, fmt: Any = None, *args: Any) -> Any:
    """Read columns of formatted text from a char vector or an open file:
    C = textscan(str, '%s %f', 'Delimiter', ',', 'HeaderLines', 1)."""
    if is_text(source):
        text = to_str(source)
    else:
        entry = get_file(source)
        text = entry.handle.read().decode("utf-8", errors="replace")
        entry.at_eof = True
    count, opts = _textscan_options(list(args))
    spec_text = to_str(fmt) if fmt is not None else "%f"
    found = [m for m in _TEXTSCAN_SPEC.finditer(spec_text) if m.group(4) != "%"]
    if not found:
        raise MatlabError("MATLAB:textscan:BadFormatString",
                          f"Unable to read the format '{spec_text}': it has no conversion.")
    specs = [m.group(4).rstrip("0123456789") for m in found]
    skip_flags = [bool(m.group(1)) for m in found]
    lines = text.splitlines()
    header = int(float(to_array(opts["headerlines"]).reshape(-1)[0])) if "headerlines" in opts else 0
    lines = lines[header:]
    delimiter = to_str(opts["delimiter"]) if "delimiter" in opts and is_text(opts["delimiter"]) else None
    fields: list[str] = []
    for line in lines:
        if delimiter:
            fields.extend(f.strip() for f in re.split("|".join(re.escape(d) for d in delimiter), line))
        else:
            fields.extend(line.split())
    columns: list[list[Any]] = [[] for _ in specs]
    k = 0
    rows = 0
    while k + len(specs) <= len(fields) and (count is None or rows < count):
        for j, conv in enumerate(specs):
            columns[j].append(fields[k + j])
        k += len(specs)
        rows += 1
    out = []
    for conv, col, skipped in zip(specs, columns, skip_flags):
        if skipped:
            continue
        if conv in ("s", "q", "c") or conv.startswith("["):
            out.append(CellArray.from_list([make_char(v.strip('"') if conv == "q" else v) for v in col],
                                           (len(col), 1)))
        else:
            nums = []
            for v in col:
                try:
                    nums.append(float(v))
                except ValueError:
                    nums.append(np.nan)
            arr = np.array(nums, dtype=np.float64).reshape(-1, 1)
            if conv in ("d", "u"):
                arr = arr.astype(np.int32)
            out.append(canonical(arr))
    return CellArray.from_list(out, (1, len(out)))
