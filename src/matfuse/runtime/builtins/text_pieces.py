"""Cutting and joining text: strtok split join replace erase extractBefore
extractAfter pad strjust regexptranslate compose.

Inputs are char vectors, cell arrays of char vectors or string arrays; the
answer comes in the input's container (``_text_args.rebuild``), as MATLAB's
documentation specifies for each function.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.builtins._text_args import (
    make_char,
    rebuild,
    string_array,
    text_arg,
    whole_number,
)
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import CHAR_DTYPE, CellArray, StringArray, char_rows, is_char, to_str

# strtok's default delimiters: MATLAB's whitespace plus NUL.
_STRTOK_DELIMS = " \t\n\v\f\r\0"


def _strtok_one(text: str, delims: str) -> tuple[str, str]:
    start = 0
    while start < len(text) and text[start] in delims:
        start += 1
    stop = start
    while stop < len(text) and text[stop] not in delims:
        stop += 1
    return text[start:stop], text[stop:]


@builtin("strtok", category="strings", nargin=(1, 2), nargout=(0, 2))
def strtok(s: Any, delimiters: Any = None) -> tuple[Any, Any]:
    """First token of text: [token, remain] = strtok(str, delimiters).
    Leading delimiters are skipped; remain starts at the delimiter after the
    token. Default delimiters are whitespace characters."""
    if isinstance(s, CellArray) and s.data.size == 0:
        return s, s
    if is_char(s) and s.size == 0:
        return s, s
    arg = text_arg(s, "strtok", "First input")
    if delimiters is None:
        delims = _STRTOK_DELIMS
    elif is_char(delimiters):
        delims = "".join(delimiters.reshape(-1, order="F").tolist())
    else:
        delims = "".join(text_arg(delimiters, "strtok", "Delimiters").items[0] or "")
    if arg.kind == "char" and len(arg.items) > 1:
        raise MatlabError("MATLAB:strtok:InvalidInput",
                          "Input must be a string array, character vector, or cell array of character vectors.")
    pairs = [_strtok_one(t or "", delims) for t in arg.items]
    if arg.kind == "char":
        # Empty pieces of char input are '' (0x0), as MATLAB's strtok gives.
        return tuple(make_char(piece) if piece else np.zeros((0, 0), dtype=CHAR_DTYPE)
                     for piece in pairs[0])
    return rebuild(arg, [p[0] for p in pairs]), rebuild(arg, [p[1] for p in pairs])


def _name_value(args: list[Any], names: tuple[str, ...], fn: str) -> tuple[list[Any], dict[str, Any]]:
    """Split trailing name-value pairs (case-insensitive names) from args."""
    opts: dict[str, Any] = {}
    while len(args) >= 2 and is_text(args[-2]) and to_str(args[-2]).lower() in names:
        opts[to_str(args[-2]).lower()] = args[-1]
        args = args[:-2]
    return args, opts


def _patterns(v: Any, fn: str) -> list[str]:
    arg = text_arg(v, fn, "Pattern")
    return [p or "" for p in arg.items]


@builtin("split", category="strings", nargin=(1, 5), nargout=(0, 2), wants_nargout=True)
def split(s: Any, *args: Any, nargout: int = 1) -> Any:
    """Split text at delimiters (whitespace by default): split(str),
    split(str, delimiter), split(str, delimiter, dim), 'CollapseDelimiters'
    (default true: consecutive delimiters count as one).

    One text gives an N-by-1 array; several texts must split into the same
    number M of pieces, which go along ``dim`` (default: the first trailing
    dimension of size 1, so N-by-1 gives N-by-M and 1-by-N gives
    1-by-N-by-M). A string input gives a string array, other text a cell
    array of char vectors. The second output holds the delimiters found."""
    rest, opts = _name_value(list(args), ("collapsedelimiters",), "split")
    collapse = bool(np.asarray(opts.get("collapsedelimiters", True)).reshape(-1)[0])
    arg = text_arg(s, "split", "First input")
    if arg.kind == "char" and len(arg.items) != 1:
        raise MatlabError("MATLAB:split:MustBeScalar",
                          "A character array to split must have one row.")
    if len(rest) > 2:
        raise MatlabError("MATLAB:TooManyInputs", "Too many input arguments.")
    if rest:
        delims = sorted(_patterns(rest[0], "split"), key=len, reverse=True)
        pattern = "|".join(re.escape(d) for d in delims if d)
    else:
        pattern = r"\s"
    if collapse and pattern:
        pattern = f"(?:{pattern})+"
    pieces: list[list[str]] = []
    found: list[list[str]] = []
    for k, text in enumerate(arg.items):
        text = text or ""
        matches = list(re.finditer(pattern, text)) if pattern else []
        cuts = [0] + [p for m in matches for p in (m.start(), m.end())] + [len(text)]
        pieces.append([text[cuts[i]:cuts[i + 1]] for i in range(0, len(cuts), 2)])
        found.append([m.group(0) for m in matches])
        if len(pieces[k]) != len(pieces[0]):
            raise MatlabError("MATLAB:split:UnequalNumberOfSubstrings",
                              f"Element {k + 1} of the text contains {len(pieces[k]) - 1} "
                              f"delimiters while the previous elements have "
                              f"{len(pieces[0]) - 1}. All elements must contain the same "
                              f"number of delimiters.")
    shape = tuple(arg.shape)
    if len(rest) == 2:
        dim = whole_number(rest[1], "split", "Dimension", 1)
        if dim <= len(shape) and shape[dim - 1] != 1:
            raise MatlabError("MATLAB:split:InvalidDimension",
                              "Dimension must be a positive integer scalar of a dimension "
                              "of size 1 of the input.")
    else:
        dim = next((d + 1 for d in range(len(shape))
                    if all(n == 1 for n in shape[d:])), len(shape) + 1)
    out = _split_grid(pieces, shape, dim, arg.kind)
    if nargout < 2:
        return out
    return out, _split_grid(found, shape, dim, arg.kind)


def _split_grid(parts: list[list[str]], shape: tuple[int, ...], dim: int, kind: str) -> Any:
    """The pieces of each text laid along dimension ``dim`` of an array the
    input's shape: element (i..., k) is piece k of text i."""
    if not parts:                      # no texts: an empty of the input's shape
        return string_array([], shape) if kind == "string" else CellArray.from_list([], shape)
    count = len(parts[0])
    full = list(shape) + [1] * max(0, dim - len(shape))
    full[dim - 1] = count
    grid = np.empty(full, dtype=object)
    base = np.arange(len(parts)).reshape(shape, order="F")
    base = base.reshape(list(shape) + [1] * (len(full) - len(shape)))
    for k in range(count):
        index = [slice(None)] * len(full)
        index[dim - 1] = slice(k, k + 1)
        grid[tuple(index)] = np.vectorize(lambda i: parts[i][k], otypes=[object])(base)
    while len(full) > 2 and full[-1] == 1:
        full.pop()
    items = list(grid.reshape(-1, order="F"))
    out_shape = tuple(full)
    if kind == "string":
        return string_array(items, out_shape)
    return CellArray.from_list([make_char(t) for t in items], out_shape)


@builtin("join", category="strings", nargin=(1, 3))
def join(s: Any, *args: Any) -> Any:
    """Join text along the last dimension whose size is not 1 with a space
    (or the given delimiter); join(str, delimiter, dim)."""
    arg = text_arg(s, "join", "First input")
    delimiter, dim = " ", None
    for a in args:
        if is_text(a):
            delimiter = to_str(a)
        elif isinstance(a, (StringArray, CellArray)):
            raise MatlabError("MATLAB:join:DelimiterArray",
                              "Arrays of delimiters are not supported; use one delimiter.")
        else:
            dim = whole_number(a, "join", "Dimension", 1)
    shape = arg.shape if arg.kind != "char" else (1, len(arg.items))
    grid = np.empty(len(arg.items), dtype=object)
    grid[:] = arg.items
    grid = grid.reshape(shape, order="F")
    if dim is None:
        dims = [d for d, n in enumerate(shape) if n != 1]
        dim = (dims[-1] + 1) if dims else 2
    if dim > grid.ndim:
        joined = grid
    else:
        moved = np.moveaxis(grid, dim - 1, -1)
        joined = np.empty(moved.shape[:-1], dtype=object)
        for idx in np.ndindex(joined.shape):
            joined[idx] = delimiter.join(x or "" for x in moved[idx])
        joined = np.expand_dims(joined, dim - 1)
    items = list(joined.reshape(-1, order="F"))
    if arg.kind == "string":
        return string_array(items, joined.shape)
    if arg.kind == "char" and len(items) == 1:
        return make_char(items[0])
    return CellArray.from_list([make_char(x) for x in items], joined.shape)


def _replace_all(text: str, olds: list[str], news: list[str]) -> str:
    """Replace every occurrence of each old text (longest first at a position)."""
    if not any(olds):
        return text
    order = sorted(range(len(olds)), key=lambda k: len(olds[k]), reverse=True)
    pattern = re.compile("|".join(re.escape(olds[k]) for k in order if olds[k]))
    lookup = {olds[k]: news[k] for k in range(len(olds))}
    return pattern.sub(lambda m: lookup[m.group(0)], text)


@builtin("replace", category="strings", nargin=(3, 3))
def replace(s: Any, old: Any, new: Any) -> Any:
    """Replace all occurrences of old (text or array of texts) with new."""
    arg = text_arg(s, "replace", "First input")
    olds = _patterns(old, "replace")
    news = _patterns(new, "replace")
    if len(news) == 1:
        news = news * len(olds)
    if len(news) != len(olds):
        raise MatlabError("MATLAB:replace:SizeMismatch",
                          "Second and third arguments must have the same number of elements, "
                          "or the third argument must be a scalar.")
    return rebuild(arg, [None if t is None else _replace_all(t, olds, news) for t in arg.items])


@builtin("erase", category="strings", nargin=(2, 2))
def erase(s: Any, match: Any) -> Any:
    """Delete all occurrences of match (text or array of texts). Char text
    left empty is 0x0, as MATLAB's char of an empty string."""
    arg = text_arg(s, "erase", "First input")
    olds = _patterns(match, "erase")
    out = rebuild(arg, [None if t is None else _replace_all(t, olds, [""] * len(olds))
                        for t in arg.items])
    if isinstance(out, CellArray):
        return CellArray(np.vectorize(_empty_char_0x0, otypes=[object])(out.data)) if out.data.size else out
    return _empty_char_0x0(out)


def _empty_char_0x0(v: Any) -> Any:
    if is_char(v) and v.size == 0:
        return np.zeros((0, 0), dtype=CHAR_DTYPE)
    return v


def _extract(s: Any, where: Any, fn: str, before: bool) -> Any:
    arg = text_arg(s, fn, "First input")
    results: list[str | None] = []
    if is_text(where) or isinstance(where, (CellArray, StringArray)):
        pats = _patterns(where, fn)
        if len(pats) == 1:
            pats = pats * len(arg.items)
        for text, pat in zip(arg.items, pats):
            k = -1 if text is None else text.find(pat)
            if k < 0:
                results.append(None if arg.kind == "string" else "")
            else:
                results.append(text[:k] if before else text[k + len(pat):])
    else:
        positions = np.asarray(where, dtype=np.float64).reshape(-1, order="F")
        if positions.size == 1:
            positions = np.repeat(positions, len(arg.items))
        for text, p in zip(arg.items, positions):
            pos = int(p)
            limit = len(text or "") + (1 if before else 0)
            if p != pos or pos < (1 if before else 0) or pos > limit:
                raise MatlabError("MATLAB:strings:PositionOutOfRange",
                                  "Numeric value exceeds the number of characters in element 1.")
            results.append((text or "")[:pos - 1] if before else (text or "")[pos:])
    return rebuild(arg, results)


@builtin("extractBefore", category="strings", nargin=(2, 2))
def extractBefore(s: Any, where: Any) -> Any:
    """Text before a position (exclusive) or before the first occurrence of a pattern."""
    return _extract(s, where, "extractBefore", before=True)


@builtin("extractAfter", category="strings", nargin=(2, 2))
def extractAfter(s: Any, where: Any) -> Any:
    """Text after a position or after the end of the first occurrence of a pattern."""
    return _extract(s, where, "extractAfter", before=False)


@builtin("pad", category="strings", nargin=(1, 4))
def pad(s: Any, *args: Any) -> Any:
    """Pad text with spaces (or padCharacter) to the longest text or to
    numberOfCharacters: pad(str, n, side, padCharacter), side 'right'
    (default), 'left' or 'both'."""
    arg = text_arg(s, "pad", "First input")
    width, side, fill = None, "right", " "
    rest = list(args)
    if rest and not is_text(rest[0]):
        width = whole_number(rest.pop(0), "pad", "Number of characters")
    if rest:
        side = to_str(rest.pop(0)).lower()
        if side not in ("left", "right", "both"):
            raise MatlabError("MATLAB:pad:InvalidSide", "Side must be 'left', 'right', or 'both'.")
    if rest:
        fill = to_str(rest.pop(0))
        if len(fill) != 1:
            raise MatlabError("MATLAB:pad:InvalidPadCharacter", "Pad character must be a single character.")
    texts = [t or "" for t in arg.items]
    target = width if width is not None else max((len(t) for t in texts), default=0)
    out: list[str | None] = []
    for t, orig in zip(texts, arg.items):
        extra = max(target - len(t), 0)
        if orig is None:
            out.append(None)
        elif side == "right":
            out.append(t + fill * extra)
        elif side == "left":
            out.append(fill * extra + t)
        else:
            left = extra // 2
            out.append(fill * left + t + fill * (extra - left))
    return rebuild(arg, out)


@builtin("strjust", category="strings", nargin=(1, 2))
def strjust(s: Any, justify: Any = None) -> Any:
    """Justify the rows of a char array: 'right' (default), 'left' or 'center'."""
    mode = "right" if justify is None else to_str(justify).lower()
    if mode not in ("right", "left", "center"):
        raise MatlabError("MATLAB:strjust:InvalidJustification",
                          "Justification must be 'left', 'right', or 'center'.")
    if isinstance(s, (CellArray, StringArray)):
        arg = text_arg(s, "strjust", "Input")
        return rebuild(arg, [None if t is None else _justify(t, len(t), mode) for t in arg.items])
    if not is_char(s):
        raise MatlabError("MATLAB:strjust:InvalidInput", "Input must be a character array.")
    if s.size == 0:
        return s
    width = s.shape[1]
    rows = ["".join(s[r, :].tolist()) for r in range(s.shape[0])]
    out = char_rows([_justify(r, width, mode) for r in rows])
    return out.astype(CHAR_DTYPE)


def _justify(row: str, width: int, mode: str) -> str:
    body = row.strip(" \0")
    if body == "":
        return row
    extra = width - len(body)
    if mode == "left":
        return body + " " * extra
    if mode == "right":
        return " " * extra + body
    left = extra // 2
    return " " * left + body + " " * (extra - left)


_REGEX_SPECIAL = set("[]()^$.|*+?{}\\")


@builtin("regexptranslate", category="strings", nargin=(2, 2))
def regexptranslate(op: Any, s: Any) -> Any:
    """Translate text into a regular expression: 'escape' escapes the special
    characters, 'wildcard' turns * ? . into .* . \\., 'flexible' matches
    whitespace runs with \\s+."""
    how = to_str(op).lower()
    arg = text_arg(s, "regexptranslate", "Second input")

    def translate(t: str) -> str:
        if how == "escape":
            return "".join("\\" + c if c in _REGEX_SPECIAL else c for c in t)
        if how == "wildcard":
            return t.replace(".", "\\.").replace("*", ".*").replace("?", ".")
        if how == "flexible":
            return re.sub(r"\s+", r"\\s+", "".join("\\" + c if c in _REGEX_SPECIAL else c for c in t))
        raise MatlabError("MATLAB:regexptranslate:InvalidOperation",
                          "Operation must be 'escape', 'wildcard', or 'flexible'.")

    return rebuild(arg, [None if t is None else translate(t) for t in arg.items])


def _compose_column(v: Any) -> tuple[list[Any], int, int]:
    """Elements of a compose data argument (row-major per row) and its shape."""
    from matfuse.runtime.values import shape_of, to_array
    if isinstance(v, (StringArray, CellArray)):
        arg = text_arg(v, "compose", "Data")
        rows, cols = (arg.shape + (1,))[:2]
        grid = np.empty(len(arg.items), dtype=object)
        grid[:] = [make_char(t or "") for t in arg.items]
        grid = grid.reshape(arg.shape, order="F").reshape(rows, -1, order="F")
        return [grid[r, c] for r in range(rows) for c in range(grid.shape[1])], rows, grid.shape[1]
    if is_char(v):
        return [v], 1, 1
    arr = to_array(v)
    rows, cols = shape_of(v)[0], int(np.prod(shape_of(v)[1:]))
    arr = arr.reshape(rows, cols, order="F")
    from matfuse.runtime.values import canonical
    return [canonical(arr[r:r + 1, c:c + 1].copy()) for r in range(rows) for c in range(cols)], rows, cols


@builtin("compose", category="strings", nargin=(1, None))
def compose(fmt: Any, *data: Any) -> Any:
    """Format data into text: compose(formatSpec, A1, ..., AN).
    Each row of the data gives one row of the result; the columns are
    consumed by the format's conversions, as many times as they fill it.
    A string formatSpec gives a string array, other text a cell array of
    character vectors (MATLAB's rule)."""
    from matfuse.runtime.printf import format_printf, parse_format, process_escapes
    formats = [t or "" for t in text_arg(fmt, "compose", "Format").items]
    as_strings = type(fmt) is StringArray
    if not data:
        shape = (1, len(formats)) if len(formats) > 1 else (1, 1)
        return _composed([process_escapes(f) for f in formats], shape, as_strings)
    if len(formats) != 1:
        raise MatlabError("MATLAB:compose:FormatSize", "The format must be a single text when data are given.")
    spec = formats[0]
    nspec = max(1, sum(1 for p in parse_format(process_escapes(spec)) if not isinstance(p, str)))
    columns = [_compose_column(d) for d in data]
    rows = max(c[1] for c in columns)
    out_rows: list[list[str]] = []
    for r in range(rows):
        row_values: list[Any] = []
        for values, nrows, ncols in columns:
            rr = r if nrows > 1 else 0
            row_values.append(values[rr * ncols:(rr + 1) * ncols])
        if len(columns) == 1:
            flat = row_values[0]
            pieces = [format_printf(spec, flat[k:k + nspec]) for k in range(0, len(flat), nspec)] or [spec]
        else:
            width = max(len(v) for v in row_values)
            pieces = [format_printf(spec, [v[c if len(v) > 1 else 0] for v in row_values])
                      for c in range(width)]
        out_rows.append(pieces)
    ncols_out = max(len(p) for p in out_rows)
    items = [out_rows[r][c] if c < len(out_rows[r]) else "" for c in range(ncols_out) for r in range(rows)]
    return _composed(items, (rows, ncols_out), as_strings)


def _composed(items: list[str], shape: tuple[int, int], as_strings: bool) -> Any:
    """compose's result: a string array, or a cell array of char vectors."""
    if as_strings:
        return string_array(items, shape)
    return CellArray.from_list([make_char(t) for t in items], shape)
