"""String comparison and search: strcmp family, strfind, contains,
startsWith, endsWith (cell- and string-array aware)."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.builtins._text_args import logical_result, text_arg, whole_number
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import (
    CHAR_DTYPE as _CHAR,
    CellArray,
    StringArray,
    canonical,
    is_char,
    to_array,
    to_str,
)


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
    if n is None and not fold and type(a) is np.ndarray and type(b) is np.ndarray \
            and a.dtype == _CHAR and b.dtype == _CHAR and a.ndim == 2 and b.ndim == 2 \
            and a.shape[0] <= 1 and b.shape[0] <= 1:
        # Two char rows: compare their code units, no conversion to str.
        # Empty texts are equal unless their widths differ ('' vs a 0x2 char).
        if a.size != b.size:
            return False
        return (a.shape[1] == b.shape[1]) if a.size == 0 else a.tobytes() == b.tobytes()
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
        # Up to n characters: texts shorter than n must match entirely.
        return sa[:n] == sb[:n]
    return sa == sb


def _char_rows(v: Any) -> CellArray:
    """A multi-row char array as a column cell of its rows (MATLAB compares
    each row with a cell or string array)."""
    rows = [v[r:r + 1, :] for r in range(v.shape[0])]
    return CellArray.from_list(rows, (len(rows), 1))


def _is_char_matrix(v: Any) -> bool:
    """Several rows of text; a char array with no rows is one empty text."""
    return is_char(v) and v.ndim == 2 and v.shape[0] > 1


def _strcmp_family(a: Any, b: Any, n: int | None, fold: bool, fn: str) -> Any:
    if _is_char_matrix(a) and isinstance(b, (CellArray, StringArray)):
        a = _char_rows(a)
    elif _is_char_matrix(b) and isinstance(a, (CellArray, StringArray)):
        b = _char_rows(b)
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


def _char_row_key(v: Any) -> bytes | None:
    """The code units of a non-empty char row as bytes; None for anything
    else (empty texts of different widths differ: the general path). Two
    such values are strcmp-equal iff their keys are."""
    if type(v) is np.ndarray and v.dtype == _CHAR and v.ndim == 2 and v.shape[0] == 1 \
            and v.shape[1] > 0:
        return v.tobytes()
    return None


def _strcmp_char_row(key: bytes, row: Any, other: Any) -> Any:
    """strcmp of a char row (``key`` its code units) with a char row or a
    cell array: the common cases without building compare items; None for
    other operands."""
    other_key = _char_row_key(other)
    if other_key is not None:
        return key == other_key
    if type(other) is not CellArray:
        return None
    data = other.data
    hits = np.zeros(data.size, dtype=bool)    # few hits: set one by one
    shape = row.shape
    count = shape[1]
    for k, item in enumerate(data.ravel(order="F").tolist()):
        # An array equals the row only as a char row of the same code
        # units (numbers, other shapes and other texts differ); other
        # items (string scalars...) take the general test.
        if type(item) is np.ndarray:
            if item.size == count and item.tobytes() == key and item.dtype == _CHAR \
                    and item.shape == shape:
                hits[k] = True
        elif _equal(row, item, None, False):
            hits[k] = True
    cell_shape = data.shape
    if len(cell_shape) == 2 and (cell_shape[0] == 1 or cell_shape[1] == 1):
        return hits.reshape(cell_shape)     # a vector: both orders agree
    return hits.reshape(cell_shape, order="F")


@builtin("strcmp", category="strings", nargin=(2, 2))
def strcmp(a: Any, b: Any) -> Any:
    """Compare text (case sensitive); cell- and string-array aware."""
    key = _char_row_key(a)
    if key is not None:
        quick = _strcmp_char_row(key, a, b)
        if quick is not None:
            return quick
    else:
        key = _char_row_key(b)
        if key is not None and type(a) is CellArray:
            return _strcmp_char_row(key, b, a)
    return _strcmp_family(a, b, None, False, "strcmp")


@builtin("strcmpi", category="strings", nargin=(2, 2))
def strcmpi(a: Any, b: Any) -> Any:
    """Compare text ignoring case."""
    return _strcmp_family(a, b, None, True, "strcmpi")


@builtin("strncmp", category="strings", nargin=(3, 3))
def strncmp(a: Any, b: Any, n: Any) -> Any:
    """Compare the first n characters."""
    return _strcmp_family(a, b, whole_number(n, "strncmp", "N"), False, "strncmp")


@builtin("strncmpi", category="strings", nargin=(3, 3))
def strncmpi(a: Any, b: Any, n: Any) -> Any:
    """Compare the first n characters ignoring case."""
    return _strcmp_family(a, b, whole_number(n, "strncmpi", "N"), True, "strncmpi")


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
def strfind(text: Any, pattern: Any, *options: Any) -> Any:
    """Indices of every occurrence of pattern in text (overlaps included);
    an empty pattern finds nothing ([]). strfind(..., 'ForceCellOutput',
    true) returns a cell array even for one text."""
    force_cell = _force_cell_output(options)
    pat = text_arg(pattern, "strfind", "Pattern")
    if pat.kind == "cell" or len(pat.items) != 1:
        raise MatlabError("MATLAB:strfind:PatternMustBeText",
                          "PATTERN must be a string scalar or character vector.")
    p = pat.items[0] or ""
    arg = text_arg(text, "strfind", "First argument")
    if arg.kind == "char":
        texts = [arg.items[0] if len(arg.items) == 1 else "".join(arg.items)]
        shape: tuple[int, ...] = (1, 1)
    else:
        texts = [s or "" for s in arg.items]
        shape = arg.shape
    found = [_index_row(_find_all(s, p)) if p else np.zeros((0, 0)) for s in texts]
    if arg.kind != "cell" and len(found) == 1 and not force_cell:
        return found[0]
    return CellArray.from_list(found, shape)


def _force_cell_output(options: tuple[Any, ...]) -> bool:
    if len(options) not in (0, 2) or (options and not (
            is_text(options[0]) and to_str(options[0]).lower() == "forcecelloutput")):
        raise MatlabError("MATLAB:strfind:InvalidOption",
                          "Expected the name-value argument 'ForceCellOutput'.")
    if not options:
        return False
    return bool(np.asarray(to_array(options[1])).reshape(-1)[0])


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
