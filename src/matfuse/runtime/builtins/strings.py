"""String builtins: comparison, search, joining, splitting, trimming, case."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import int_value, is_text
from matfuse.runtime.builtins._text_args import (
    logical_result,
    make_char,
    rebuild,
    string_array,
    text_arg,
)
from matfuse.runtime.printf import process_escapes
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    StringArray,
    canonical,
    is_char,
    to_array,
    to_str,
)

_WHITESPACE = " \t\n\v\f\r\0"


# ------------------------------------------------------------- comparison
def _compare_items(v: Any) -> tuple[list[Any], tuple[int, ...] | None]:
    """Items for strcmp: (list, shape) for cells/strings, ([v], None) otherwise."""
    if isinstance(v, CellArray):
        return list(v.data.reshape(-1, order="F")), v.data.shape
    if isinstance(v, StringArray) and v.data.size != 1:
        return list(v.data.reshape(-1, order="F")), v.data.shape
    return [v], None


def _as_compare_text(v: Any) -> str | None:
    if isinstance(v, str):
        return v
    if is_char(v):
        if v.ndim == 2 and v.shape[0] <= 1:
            return "".join(v.reshape(-1).tolist())
        return None
    if isinstance(v, StringArray) and v.data.size == 1:
        return v.data.reshape(-1)[0]
    return None


def _equal(a: Any, b: Any, n: int | None, fold: bool) -> bool:
    if is_char(a) and is_char(b) and (a.shape[0] > 1 or b.shape[0] > 1):
        if a.shape != b.shape:
            return False
        x, y = a, b
        if fold:
            x, y = np.char.lower(x), np.char.lower(y)
        return bool(np.array_equal(x, y))
    sa, sb = _as_compare_text(a), _as_compare_text(b)
    if sa is None or sb is None:
        return False
    if fold:
        sa, sb = sa.lower(), sb.lower()
    if n is not None:
        if len(sa) < n or len(sb) < n:
            return sa == sb and len(sa) >= n
        return sa[:n] == sb[:n]
    return sa == sb


def _strcmp_family(a: Any, b: Any, n: int | None, fold: bool, fn: str) -> Any:
    items_a, shape_a = _compare_items(a)
    items_b, shape_b = _compare_items(b)
    if shape_a is None and shape_b is None:
        return _equal(a, b, n, fold)
    if shape_a is not None and shape_b is not None and len(items_a) != 1 and len(items_b) != 1:
        if shape_a != shape_b:
            raise MatlabError(f"MATLAB:{fn}:InputsSizeMismatch" if fn else "MATLAB:strcmp:InputsSizeMismatch",
                              "Inputs must be the same size or either one can be a scalar.")
        values = [_equal(x, y, n, fold) for x, y in zip(items_a, items_b)]
        return np.array(values, dtype=bool).reshape(shape_a, order="F")
    if shape_a is None or len(items_a) == 1 and shape_b is not None:
        shape = shape_b
        values = [_equal(items_a[0], y, n, fold) for y in items_b]
    else:
        shape = shape_a
        values = [_equal(x, items_b[0], n, fold) for x in items_a]
    return np.array(values, dtype=bool).reshape(shape, order="F")


@builtin("strcmp", category="strings", nargin=(2, 2))
def strcmp(a: Any, b: Any) -> Any:
    """Compare text (case sensitive); cell- and string-array aware."""
    return _strcmp_family(a, b, None, False, "strcmp")


@builtin("strcmpi", category="strings", nargin=(2, 2))
def strcmpi(a: Any, b: Any) -> Any:
    """Compare text ignoring case."""
    return _strcmp_family(a, b, None, True, "strcmpi")


@builtin("strncmp", category="strings", nargin=(3, 3))
def strncmp(a: Any, b: Any, n: Any) -> Any:
    """Compare the first n characters."""
    return _strcmp_family(a, b, int_value(n, "strncmp"), False, "strncmp")


@builtin("strncmpi", category="strings", nargin=(3, 3))
def strncmpi(a: Any, b: Any, n: Any) -> Any:
    """Compare the first n characters ignoring case."""
    return _strcmp_family(a, b, int_value(n, "strncmpi"), True, "strncmpi")


# ------------------------------------------------------------------ search
def _find_all(text: str, pattern: str) -> list[float]:
    if not pattern or len(pattern) > len(text):
        return []
    hits = []
    start = text.find(pattern)
    while start >= 0:
        hits.append(float(start + 1))
        start = text.find(pattern, start + 1)
    return hits


def _index_row(hits: list[float]) -> Any:
    if not hits:
        return np.zeros((1, 0))
    return canonical(np.array([hits], dtype=np.float64))


@builtin("strfind", category="strings", nargin=(2, 4))
def strfind(text: Any, pattern: Any, *_: Any) -> Any:
    """Indices of every occurrence of pattern in text (overlaps included)."""
    pat = text_arg(pattern, "strfind", "Pattern")
    if pat.kind == "cell" or len(pat.items) != 1:
        raise MatlabError("MATLAB:strfind:PatternMustBeText",
                          "PATTERN must be a string scalar or character vector.")
    p = pat.items[0] or ""
    arg = text_arg(text, "strfind", "First argument")
    if arg.kind == "char":
        return _index_row(_find_all(arg.items[0] if len(arg.items) == 1 else "".join(arg.items), p))
    if arg.kind == "string" and len(arg.items) == 1:
        return _index_row(_find_all(arg.items[0] or "", p))
    return CellArray.from_list([_index_row(_find_all(s or "", p)) for s in arg.items], arg.shape)


def _patterns(pattern: Any, fn: str) -> list[str]:
    return [p or "" for p in text_arg(pattern, fn, "Pattern").items]


def _ignore_case(options: tuple[Any, ...], fn: str) -> bool:
    fold = False
    for i in range(0, len(options) - 1, 2):
        if is_text(options[i]) and to_str(options[i]).lower() == "ignorecase":
            fold = bool(to_array(options[i + 1]).reshape(-1)[0])
        else:
            raise MatlabError(f"MATLAB:{fn}:InvalidOption", "Invalid name-value argument.")
    return fold


def _match_builtin(fn: str, test) -> Any:
    def impl(text: Any, pattern: Any, *options: Any) -> Any:
        fold = _ignore_case(options, fn)
        arg = text_arg(text, fn, "First argument")
        pats = _patterns(pattern, fn)
        if fold:
            pats = [p.lower() for p in pats]
        values = []
        for s in arg.items:
            s = (s or "")
            s = s.lower() if fold else s
            values.append(any(test(s, p) for p in pats))
        return logical_result(arg, values)

    impl.__doc__ = f"True where text {fn.lower()} any of the patterns."
    return impl


contains = builtin("contains", category="strings", nargin=(2, 4))(
    _match_builtin("contains", lambda s, p: p in s))
startsWith = builtin("startsWith", category="strings", nargin=(2, 4))(
    _match_builtin("startsWith", lambda s, p: s.startswith(p)))
endsWith = builtin("endsWith", category="strings", nargin=(2, 4))(
    _match_builtin("endsWith", lambda s, p: s.endswith(p)))


# --------------------------------------------------------- build and split
@builtin("strcat", category="strings", nargin=(1, None))
def strcat(*args: Any) -> Any:
    """Concatenate text horizontally (trailing blanks of char args removed)."""
    if any(isinstance(a, StringArray) for a in args):
        kind = "string"
    elif any(isinstance(a, CellArray) for a in args):
        kind = "cell"
    else:
        kind = "char"
    if kind == "char":
        if any(is_char(a) and a.ndim == 2 and a.shape[0] > 1 for a in args):
            return _strcat_char_rows(args)
        pieces = []
        for a in args:
            if is_char(a):
                pieces.append("".join(a.reshape(-1, order="F").tolist()).rstrip(_WHITESPACE))
            elif isinstance(a, np.ndarray) or type(a) is float:
                arr = to_array(a)
                pieces.append("".join(chr(int(c)) for c in arr.reshape(-1, order="F")))
        return make_char("".join(pieces))
    parsed = [text_arg(a, "strcat") for a in args]
    shape = None
    for p in parsed:
        if p.kind != "char" and len(p.items) != 1:
            if shape is not None and shape != p.shape:
                raise MatlabError("MATLAB:strcat:InvalidInputSize",
                                  "All the input arguments must have the same size or be scalars.")
            shape = p.shape
    shape = shape or (1, 1)
    count = int(np.prod(shape))
    out = []
    for i in range(count):
        parts = []
        for p in parsed:
            s = p.items[0] if len(p.items) == 1 else p.items[i]
            parts.append(s or "")
        out.append("".join(parts))
    if kind == "string":
        return string_array(out, shape)
    return CellArray.from_list([make_char(s) for s in out], shape)


def _strcat_char_rows(args: tuple[Any, ...]) -> Any:
    arrays = [to_array(a) for a in args]
    rows = max(a.shape[0] for a in arrays)
    lines = [""] * rows
    for a in arrays:
        for r in range(rows):
            src = a[r if a.shape[0] > 1 else 0, :]
            lines[r] += "".join(src.tolist()).rstrip(_WHITESPACE)
    from matfuse.runtime.values import char_rows

    return char_rows(lines)


@builtin("strsplit", category="strings", nargin=(1, None))
def strsplit(text: Any, delimiter: Any = None, *options: Any) -> Any:
    """Split text at delimiters (whitespace by default, collapsed)."""
    arg = text_arg(text, "strsplit", "First input")
    if arg.kind == "cell" or len(arg.items) != 1:
        raise MatlabError("MATLAB:strsplit:InvalidStringType",
                          "First input must be either a character vector or a string scalar.")
    s = arg.items[0] or ""
    collapse = True
    if delimiter is not None and is_text(delimiter) and to_str(delimiter).lower() == "collapsedelimiters" and not options:
        raise MatlabError("MATLAB:strsplit:InvalidParameter", "Parameter value missing.")
    for i in range(0, len(options) - 1, 2):
        if is_text(options[i]) and to_str(options[i]).lower() == "collapsedelimiters":
            collapse = bool(to_array(options[i + 1]).reshape(-1)[0])
    if delimiter is None:
        delims = [" ", "\f", "\n", "\r", "\t", "\v"]
    else:
        delims = [process_escapes(d or "") for d in text_arg(delimiter, "strsplit", "Delimiter").items]
    delims = sorted((d for d in delims if d), key=len, reverse=True)
    parts: list[str] = []
    current: list[str] = []
    i = 0
    last_was_delim = False
    while i < len(s):
        match = next((d for d in delims if s.startswith(d, i)), None)
        if match is None:
            current.append(s[i])
            i += 1
            last_was_delim = False
            continue
        if not (collapse and last_was_delim):
            parts.append("".join(current))
            current = []
        i += len(match)
        last_was_delim = True
    parts.append("".join(current))
    if arg.kind == "string":
        return string_array(parts, (1, len(parts)))
    return CellArray.from_list([make_char(p) for p in parts])


@builtin("strjoin", category="strings", nargin=(1, 2))
def strjoin(items: Any, delimiter: Any = None) -> Any:
    """Join a cell array of text with a delimiter (a space by default)."""
    if not isinstance(items, (CellArray, StringArray)):
        raise MatlabError("MATLAB:strjoin:InvalidCellType",
                          "First input must be a 1xN cell array of character vectors or a string array.")
    arg = text_arg(items, "strjoin")
    sep = " " if delimiter is None else process_escapes(text_arg(delimiter, "strjoin").items[0] or "")
    text = sep.join(s or "" for s in arg.items)
    if arg.kind == "string":
        return StringArray.scalar(text)
    return make_char(text)


@builtin("strrep", category="strings", nargin=(3, 3))
def strrep(text: Any, old: Any, new: Any) -> Any:
    """Replace every occurrence of old with new."""
    arg = text_arg(text, "strrep", "First argument")
    o = text_arg(old, "strrep").items[0] or ""
    n = text_arg(new, "strrep").items[0] or ""
    if arg.kind == "char" and len(arg.items) > 1:
        raise MatlabError("MATLAB:strrep:MultiRowInput", "Char inputs must be row vectors.")
    out = [(s or "").replace(o, n) if o else s for s in arg.items]
    return rebuild(arg, out)


@builtin("strtrim", category="strings", nargin=(1, 1))
def strtrim(text: Any) -> Any:
    """Remove leading and trailing whitespace."""
    if is_char(text) and text.shape[0] > 1:
        return _trim_char_matrix(text, both=True)
    arg = text_arg(text, "strtrim")
    return rebuild(arg, [None if s is None else s.strip(_WHITESPACE) for s in arg.items])


@builtin("deblank", category="strings", nargin=(1, 1))
def deblank(text: Any) -> Any:
    """Remove trailing whitespace and null characters."""
    if is_char(text) and text.shape[0] > 1:
        return _trim_char_matrix(text, both=False)
    arg = text_arg(text, "deblank")
    return rebuild(arg, [None if s is None else s.rstrip(_WHITESPACE) for s in arg.items])


def _trim_char_matrix(arr: np.ndarray, both: bool) -> np.ndarray:
    blank = np.isin(arr, list(_WHITESPACE))
    cols = np.where(~np.all(blank, axis=0))[0]
    if cols.size == 0:
        return np.zeros((arr.shape[0], 0), dtype=CHAR_DTYPE)
    start = int(cols[0]) if both else 0
    return arr[:, start:int(cols[-1]) + 1].copy()


def _case_builtin(fn: str, convert) -> Any:
    def impl(text: Any) -> Any:
        if is_char(text):
            return np.char.upper(text) if convert is str.upper else np.char.lower(text)
        if isinstance(text, (CellArray, StringArray)):
            arg = text_arg(text, fn)
            return rebuild(arg, [None if s is None else convert(s) for s in arg.items])
        return text

    impl.__doc__ = f"Convert text to {'upper' if convert is str.upper else 'lower'}case."
    return impl


upper = builtin("upper", category="strings", nargin=(1, 1))(_case_builtin("upper", str.upper))
lower = builtin("lower", category="strings", nargin=(1, 1))(_case_builtin("lower", str.lower))


# ------------------------------------------------------------ small helpers
@builtin("blanks", category="strings", nargin=(1, 1))
def blanks(n: Any) -> Any:
    """A row of n spaces."""
    count = int_value(n, "blanks")
    return np.full((1, max(count, 0)), " ", dtype=CHAR_DTYPE)


@builtin("newline", category="strings", nargin=(0, 0))
def newline() -> Any:
    """The newline character."""
    return make_char("\n")


@builtin("strlength", category="strings", nargin=(1, 1))
def strlength(text: Any) -> Any:
    """Number of characters in each text."""
    arg = text_arg(text, "strlength")
    values = [float("nan") if s is None else float(len(s)) for s in arg.items]
    if arg.kind == "char":
        return values[0] if len(values) == 1 else canonical(np.array(values).reshape(-1, 1))
    return canonical(np.array(values, dtype=np.float64).reshape(arg.shape, order="F"))


_CATEGORIES = {
    "alpha": str.isalpha,
    "digit": lambda c: c in "0123456789",
    "alphanum": lambda c: c.isalpha() or c in "0123456789",
    "wspace": lambda c: c in " \t\n\v\f\r" or c.isspace(),
    "upper": str.isupper,
    "lower": str.islower,
    "punct": lambda c: c.isprintable() and not c.isalnum() and not c.isspace(),
    "cntrl": lambda c: ord(c) < 32 or ord(c) == 127,
    "xdigit": lambda c: c in "0123456789abcdefABCDEF",
    "graphic": lambda c: c.isprintable() and not c.isspace(),
    "graph": lambda c: c.isprintable() and not c.isspace(),
    "print": lambda c: c.isprintable(),
    "ascii": lambda c: ord(c) < 128,
}


def _char_property(value: Any, test) -> Any:
    if is_char(value):
        flat = value.reshape(-1, order="F")
        out = np.array([test(c) for c in flat.tolist()], dtype=bool).reshape(value.shape, order="F")
        return canonical(out)
    if isinstance(value, CellArray):
        return CellArray.from_list([_char_property(e, test) for e in value.data.reshape(-1, order="F")],
                                   value.data.shape)
    if isinstance(value, StringArray) and value.data.size == 1:
        return _char_property(make_char(to_str(value)), test)
    shape = to_array(value).shape if isinstance(value, (np.ndarray, float, bool)) else (1, 1)
    return canonical(np.zeros(shape, dtype=bool))


@builtin("isspace", category="strings", nargin=(1, 1))
def isspace(value: Any) -> Any:
    """True for whitespace characters."""
    return _char_property(value, _CATEGORIES["wspace"])


@builtin("isletter", category="strings", nargin=(1, 1))
def isletter(value: Any) -> Any:
    """True for letters."""
    return _char_property(value, str.isalpha)


@builtin("isstrprop", category="strings", nargin=(2, 3))
def isstrprop(value: Any, category: Any, *_: Any) -> Any:
    """True where characters belong to a category ('alpha', 'digit', ...)."""
    name = to_str(category).lower()
    if name not in _CATEGORIES:
        raise MatlabError("MATLAB:isstrprop:InvalidCategory",
                          f"Invalid category '{to_str(category)}'.")
    if isinstance(value, (np.ndarray, float)) and not is_char(value):
        arr = to_array(value)
        codes = arr.reshape(-1, order="F")
        out = np.array([_CATEGORIES[name](chr(int(c))) for c in codes], dtype=bool)
        return canonical(out.reshape(arr.shape, order="F"))
    return _char_property(value, _CATEGORIES[name])


@builtin("strvcat", category="strings", nargin=(0, None))
def strvcat(*args: Any) -> Any:
    """Vertically concatenate text, padding rows (empty texts skipped)."""
    from matfuse.runtime.values import char_rows

    lines: list[str] = []
    for a in args:
        if isinstance(a, CellArray) or is_char(a) or isinstance(a, StringArray):
            lines += [s or "" for s in text_arg(a, "strvcat").items]
        else:
            arr = to_array(a)
            lines.append("".join(chr(int(c)) for c in arr.reshape(-1)))
    return char_rows([s for s in lines if s])
