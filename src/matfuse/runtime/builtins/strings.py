"""String builtins: joining, splitting, replacing, trimming, case, character
classes.  Comparison and search live in ``string_compare.py``."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.builtins._text_args import (
    char_codes_text,
    single_text,
    whole_number,
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
            if not all(is_char(a) for a in args):
                raise MatlabError("MATLAB:strcat:InvalidInputType",
                                  "Inputs must be character arrays, cell arrays of character vectors, or string arrays.")
            return _strcat_char_rows(args)
        pieces = []
        for a in args:
            if is_char(a):
                pieces.append("".join(a.reshape(-1, order="F").tolist()).rstrip(_WHITESPACE))
            elif isinstance(a, np.ndarray) and a.size == 0:
                continue
            else:
                pieces.append(char_codes_text(a, "strcat"))
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
            s = (p.items[0] if len(p.items) == 1 else p.items[i]) or ""
            if kind == "cell" and p.kind == "char":
                s = s.rstrip(_WHITESPACE)   # char inputs lose trailing whitespace, cells keep it
            parts.append(s)
        out.append("".join(parts))
    if kind == "string":
        return string_array(out, shape)
    return CellArray.from_list([make_char(s) for s in out], shape)


def _strcat_char_rows(args: tuple[Any, ...]) -> Any:
    arrays = [to_array(a) for a in args]
    rows = max(a.shape[0] for a in arrays)
    if any(a.shape[0] not in (1, rows) for a in arrays):
        raise MatlabError("MATLAB:strcat:InvalidInputSize",
                          "All the input arguments must have the same number of rows or be scalars.")
    lines = [""] * rows
    for a in arrays:
        for r in range(rows):
            src = a[r if a.shape[0] > 1 else 0, :]
            lines[r] += "".join(src.tolist()).rstrip(_WHITESPACE)
    from matfuse.runtime.values import char_rows

    return char_rows(lines)


def _strsplit_options(options: tuple, fn: str) -> tuple[bool, bool]:
    """(collapse, regular expression) from CollapseDelimiters/DelimiterType pairs."""
    collapse, regex = True, False
    if len(options) % 2:
        raise MatlabError("MATLAB:strsplit:InvalidParameter", "Parameter value missing.")
    for name, value in zip(options[::2], options[1::2]):
        key = to_str(name).lower() if is_text(name) else ""
        if key == "collapsedelimiters":
            collapse = bool(to_array(value).reshape(-1)[0])
        elif key == "delimitertype":
            kind = to_str(value).lower() if is_text(value) else ""
            if kind and "regularexpression".startswith(kind):
                regex = True
            elif kind and "simple".startswith(kind):
                regex = False
            else:
                raise MatlabError("MATLAB:strsplit:InvalidDelimiterType",
                                  "DelimiterType must be 'Simple' or 'RegularExpression'.")
        else:
            raise MatlabError("MATLAB:strsplit:InvalidParameter",
                              f"Invalid parameter name: {to_str(name) if is_text(name) else '?'}.")
    return collapse, regex


@builtin("strsplit", category="strings", nargin=(1, None), nargout=(0, 2))
def strsplit(text: Any, delimiter: Any = None, *options: Any) -> Any:
    """Split text at delimiters (whitespace by default); [C, matches] =
    strsplit(str, delimiter, 'CollapseDelimiters', tf, 'DelimiterType',
    'Simple' | 'RegularExpression')."""
    arg = text_arg(text, "strsplit", "First input")
    if arg.kind == "cell" or len(arg.items) != 1:
        raise MatlabError("MATLAB:strsplit:InvalidStringType",
                          "First input must be either a character vector or a string scalar.")
    s = arg.items[0] or ""
    if delimiter is not None and is_text(delimiter) and \
            to_str(delimiter).lower() in ("collapsedelimiters", "delimitertype"):
        options = (delimiter,) + options
        delimiter = None
    collapse, regex = _strsplit_options(options, "strsplit")
    if delimiter is None:
        pieces = [re.escape(d) for d in (" ", "\f", "\n", "\r", "\t", "\v")]
    else:
        delims = [d or "" for d in text_arg(delimiter, "strsplit", "Delimiter").items]
        if regex:
            pieces = [d for d in delims if d]
        else:
            pieces = [re.escape(process_escapes(d)) for d in
                      sorted((d for d in delims if d), key=lambda d: len(process_escapes(d)), reverse=True)]
    parts: list[str] = []
    matches: list[str] = []
    if pieces:
        pattern = "|".join(f"(?:{p})" for p in pieces)
        if collapse:
            pattern = f"(?:{pattern})+"
        start = 0
        for m in re.finditer(pattern, s):
            if m.end() == m.start():
                continue
            parts.append(s[start:m.start()])
            matches.append(m.group(0))
            start = m.end()
        parts.append(s[start:])
    else:
        parts = [s]
    if arg.kind == "string":
        return string_array(parts, (1, len(parts))), string_array(matches, (1, len(matches)))
    return (CellArray.from_list([make_char(p) for p in parts]),
            CellArray.from_list([make_char(p) for p in matches], (1, len(matches))))


@builtin("strjoin", category="strings", nargin=(1, 2))
def strjoin(items: Any, delimiter: Any = None) -> Any:
    """Join a cell array of text with a delimiter (a space by default, escape
    sequences processed), or with a cell array of numel(C)-1 delimiters placed
    between the elements as they are."""
    if not isinstance(items, (CellArray, StringArray)):
        raise MatlabError("MATLAB:strjoin:InvalidCellType",
                          "First input must be a 1xN cell array of character vectors or a string array.")
    arg = text_arg(items, "strjoin")
    texts = [t or "" for t in arg.items]
    if isinstance(delimiter, (CellArray, StringArray)) and not is_text(delimiter):
        seps = [d or "" for d in text_arg(delimiter, "strjoin", "Delimiter").items]
        if len(seps) != max(len(texts) - 1, 0):
            raise MatlabError("MATLAB:strjoin:WrongNumberOfDelimiterElements",
                              "The number of delimiters must be one less than the number of strings.")
        text = "".join(t + (seps[k] if k < len(seps) else "") for k, t in enumerate(texts))
    else:
        sep = " " if delimiter is None else process_escapes(single_text(delimiter, "strjoin", "Delimiter"))
        text = sep.join(texts)
    if arg.kind == "string":
        return StringArray.scalar(text)
    return make_char(text) if text else _EMPTY_CHAR.copy()


@builtin("strrep", category="strings", nargin=(3, 3))
def strrep(text: Any, old: Any, new: Any) -> Any:
    """Replace every occurrence of old with new; overlapping occurrences are
    each replaced (strrep('abc 2222', '22', '*') is 'abc ***')."""
    arg = text_arg(text, "strrep", "First argument")
    o = single_text(old, "strrep", "Old text")
    n = single_text(new, "strrep", "New text")
    if arg.kind == "char" and len(arg.items) > 1:
        raise MatlabError("MATLAB:strrep:MultiRowInput", "Char inputs must be row vectors.")
    out = [_replace_overlapping(s or "", o, n) if o and s is not None else s for s in arg.items]
    return rebuild(arg, out)


def _replace_overlapping(text: str, old: str, new: str) -> str:
    pieces: list[str] = []
    done = 0
    start = text.find(old)
    while start >= 0:
        if start >= done:
            pieces.append(text[done:start])
        pieces.append(new)
        done = start + len(old)
        start = text.find(old, start + 1)
    pieces.append(text[done:])
    return "".join(pieces)


@builtin("strtrim", category="strings", nargin=(1, 1))
def strtrim(text: Any) -> Any:
    """Remove leading and trailing whitespace."""
    return _trim_text(text, "strtrim", lambda s: s.strip(_WHITESPACE), both=True)


@builtin("deblank", category="strings", nargin=(1, 1))
def deblank(text: Any) -> Any:
    """Remove trailing whitespace and null characters."""
    return _trim_text(text, "deblank", lambda s: s.rstrip(_WHITESPACE), both=False)


def _trim_text(text: Any, fn: str, trim, both: bool) -> Any:
    """Trim char arrays, cells of char and strings. Char text that trims to
    nothing is 0x0 (MATLAB indexes it with ``[]``); empty char input comes
    back unchanged."""
    if is_char(text) and text.shape[0] > 1:
        return _trim_char_matrix(text, both=both)
    if is_char(text) and text.size == 0:
        return text
    arg = text_arg(text, fn)
    trimmed = [None if s is None else trim(s) for s in arg.items]
    if arg.kind == "string":
        return rebuild(arg, trimmed)
    chars = [_EMPTY_CHAR.copy() if not s else make_char(s) for s in trimmed]
    if arg.kind == "char" and len(chars) == 1:
        return chars[0]
    return CellArray.from_list(chars, arg.shape)


_EMPTY_CHAR = np.zeros((0, 0), dtype=CHAR_DTYPE)


def _trim_char_matrix(arr: np.ndarray, both: bool) -> np.ndarray:
    blank = np.isin(arr, list(_WHITESPACE))
    cols = np.where(~np.all(blank, axis=0))[0]
    if cols.size == 0:
        return _EMPTY_CHAR.copy()
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
    count = whole_number(n, "blanks", "Number of blanks")
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
        codes = value.reshape(-1, order="F").view(np.uint32)   # keeps char(0)
        out = np.array([test(chr(c)) for c in codes.tolist()], dtype=bool).reshape(value.shape, order="F")
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
            lines.append(char_codes_text(a, "strvcat"))
    return char_rows([s for s in lines if s])
