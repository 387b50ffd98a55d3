"""Set functions: unique union intersect setdiff setxor ismember.

Every function works on ranks: each element (or row, with 'rows') gets an
integer rank from the shared sort ordering, NaNs all distinct (MATLAB treats
NaN as unequal to everything). Results are sorted unless 'stable'; index
outputs are 1-based column vectors pointing at first occurrences.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.builtins._math_support import numeric_array
from matfuse.runtime.builtins.sorting import value_ranks
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import (
    CellArray,
    StringArray,
    canonical,
    char_array,
    is_char,
    to_str,
)


class SetInput:
    """One operand: its elements (1-D, column-major) or rows (2-D), and how
    to rebuild a value of the same kind from selected elements."""

    def __init__(self, v: Any, fn: str, rows: bool, text_peer: bool = False):
        self.original = v
        self.kind = "numeric"
        self.is_row = False
        self.is_empty_0x0 = False
        if isinstance(v, (CellArray, StringArray)):
            self.kind = "cell" if isinstance(v, CellArray) else "string"
            data = v.data
            items = np.empty(data.shape, dtype=object)
            for pos in np.ndindex(data.shape):
                item = data[pos]
                if self.kind == "cell":
                    if not (is_char(item) and item.ndim == 2 and item.shape[0] <= 1):
                        raise MatlabError(f"MATLAB:{fn}:InvalidInput",
                                          "Input A and input B must be cell arrays of character vectors.")
                    item = to_str(item)
                items[pos] = item
            data = items
        elif text_peer and is_text(v):
            # A char vector next to a cellstr is one string.
            self.kind = "cell"
            data = np.empty((1, 1), dtype=object)
            data[0, 0] = to_str(v)
        elif type(v) is np.ndarray:
            data = v
            if v.dtype.kind == "U":
                self.kind = "char"
        elif type(v) is bool:
            data = np.array([[v]])
        else:
            data = numeric_array(v, fn)
        self.shape = data.shape
        self.is_row = data.ndim == 2 and data.shape[0] == 1
        self.is_empty_0x0 = data.shape == (0, 0)
        if rows:
            if data.ndim != 2:
                raise MatlabError(f"MATLAB:{fn}:NonUniqueRows", "Input must be a 2-D matrix with 'rows'.")
            self.items = data
        else:
            self.items = data.reshape(-1, order="F")
        self.dtype = data.dtype

    def count(self) -> int:
        return self.items.shape[0]


def _ranks(items: np.ndarray, rows: bool) -> np.ndarray:
    if not rows:
        return value_ranks(items, distinct_nan=True)
    if items.shape[1] == 0:
        return np.zeros(items.shape[0], dtype=np.int64)
    cols = np.stack([value_ranks(items[:, j], distinct_nan=True) for j in range(items.shape[1])], axis=1)
    _, inverse = np.unique(cols, axis=0, return_inverse=True)
    return inverse.reshape(-1).astype(np.int64)


def _combine_items(inputs: list[SetInput], rows: bool) -> tuple[np.ndarray, np.ndarray]:
    """Concatenate operands' items (common class) and rank them together."""
    arrays = [i.items for i in inputs]
    if any(i.kind in ("cell", "string") for i in inputs):
        if not all(i.kind in ("cell", "string") for i in inputs):
            raise MatlabError("MATLAB:setfunctions:InvalidInputs",
                              "Inputs must be cell arrays of character vectors, or both of the same class.")
        combined = np.concatenate([a.reshape(-1) for a in arrays]) if not rows else np.concatenate(arrays)
    else:
        dtype = _common_dtype([i.dtype for i in inputs])
        if rows:
            widths = {a.shape[1] for a in arrays if a.size or a.shape[1]}
            if len(widths) > 1:
                raise MatlabError("MATLAB:setfunctions:nonMatchingColumns",
                                  "Inputs A and B must have the same number of columns in the 'rows' case.")
        combined = np.concatenate([_as_dtype(a, dtype) for a in arrays], axis=0)
    return combined, _ranks(combined, rows)


def _as_dtype(a: np.ndarray, dtype: np.dtype) -> np.ndarray:
    if a.dtype == dtype:
        return a
    if a.dtype.kind == "U":
        from matfuse.runtime.values import char_codes

        return char_codes(a).astype(dtype)
    return a.astype(dtype)


def _common_dtype(dtypes: list[np.dtype]) -> np.dtype:
    kinds = {d.kind for d in dtypes}
    ints = [d for d in dtypes if d.kind in "iu"]
    if ints:
        return ints[0]
    if kinds == {"U"}:
        return dtypes[0]
    if kinds == {"b"}:
        return np.dtype(np.bool_)
    complex_ = "c" in kinds
    single = any(d in (np.float32, np.complex64) for d in dtypes)
    if complex_:
        return np.dtype(np.complex64 if single else np.complex128)
    return np.dtype(np.float32 if single else np.float64)


def _groups(ranks: np.ndarray, stable: bool, last: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Representative positions of each distinct rank (in output order) and
    each position's group number."""
    order = np.argsort(ranks, kind="stable")
    sorted_ranks = ranks[order]
    starts = np.ones(ranks.size, dtype=bool)
    starts[1:] = sorted_ranks[1:] != sorted_ranks[:-1]
    group_of_sorted = np.cumsum(starts) - 1
    first_pos = order[starts]
    if last:
        ends = np.ones(ranks.size, dtype=bool)
        ends[:-1] = starts[1:]
        rep_pos = order[ends]
    else:
        rep_pos = first_pos
    group = np.empty(ranks.size, dtype=np.int64)
    group[order] = group_of_sorted
    if stable:
        by_appearance = np.argsort(first_pos, kind="stable")
        renumber = np.empty_like(by_appearance)
        renumber[by_appearance] = np.arange(by_appearance.size)
        return rep_pos[by_appearance], renumber[group]
    return rep_pos, group


def _first_positions(groups: np.ndarray, count: int) -> np.ndarray:
    """Lowest position of each group id in ``groups`` (-1 where absent)."""
    none = np.iinfo(np.int64).max
    first = np.full(count, none, dtype=np.int64)
    np.minimum.at(first, groups, np.arange(groups.size, dtype=np.int64))
    first[first == none] = -1
    return first


def _last_positions(groups: np.ndarray, count: int) -> np.ndarray:
    """Highest position of each group id in ``groups`` (-1 where absent)."""
    last = np.full(count, -1, dtype=np.int64)
    np.maximum.at(last, groups, np.arange(groups.size, dtype=np.int64))
    return last


def _index_column(positions: np.ndarray, as_row: bool = False) -> Any:
    values = np.asarray(positions, dtype=np.float64) + 1
    return canonical(values.reshape(1, -1) if as_row else values.reshape(-1, 1))


def _is_column(item: SetInput) -> bool:
    return len(item.shape) == 2 and item.shape[1] == 1 and item.shape[0] != 1


def _build(inputs: list[SetInput], combined: np.ndarray, positions: np.ndarray,
           rows: bool, as_row: bool) -> Any:
    picked = combined[positions]
    kinds = {i.kind for i in inputs}
    if rows:
        if "cell" in kinds:
            return CellArray(_strings_to_chars(picked))
        return canonical(picked)
    shape = (1, picked.size) if as_row else (picked.size, 1)
    if "string" in kinds:
        return StringArray(picked.reshape(shape))
    if "cell" in kinds:
        return CellArray(_strings_to_chars(picked.reshape(shape)))
    return canonical(picked.reshape(shape))


def _strings_to_chars(strings: np.ndarray) -> np.ndarray:
    data = np.empty(strings.shape, dtype=object)
    for pos in np.ndindex(strings.shape):
        data[pos] = char_array(strings[pos])
    return data


def _options(args: tuple[Any, ...], fn: str, allowed: tuple[str, ...]) -> set[str]:
    found = set()
    for a in args:
        if not is_text(a) or to_str(a).lower() not in allowed:
            raise MatlabError(f"MATLAB:{fn}:UnknownInput", "Unknown input.")
        found.add(to_str(a).lower())
    if "stable" in found and "sorted" in found:
        raise MatlabError(f"MATLAB:{fn}:SetOrderConflict", "You cannot specify more than one set order option.")
    return found


@builtin("unique", category="sets", nargin=(1, 5), nargout=(0, 3), wants_nargout=True)
def unique(a: Any, *args: Any, nargout: int = 1) -> Any:
    """Unique values (sorted, or 'stable'), [C, ia, ic]; 'rows'; 'first'/'last'."""
    opts = _options(args, "unique", ("stable", "sorted", "rows", "first", "last", "legacy"))
    rows = "rows" in opts
    legacy = "legacy" in opts
    item = SetInput(a, "unique", rows)
    combined, ranks = _combine_items([item], rows)
    # 'legacy' (MATLAB's pre-R2012b behaviour): last occurrences, and index
    # vectors shaped like a row input.
    last = "last" in opts or (legacy and "first" not in opts)
    rep, group = _groups(ranks, "stable" in opts, last=last)
    as_row = item.is_row and not rows
    if item.is_empty_0x0 and not rows and item.kind not in ("cell", "string"):
        # unique([]) is 0x0, like its input.
        empty = canonical(np.zeros((0, 0), dtype=combined.dtype))
        return (empty, np.zeros((0, 1)), np.zeros((0, 1))) if nargout >= 2 else empty
    out = _build([item], combined, rep, rows, as_row)
    if nargout < 2:
        return out
    index_row = legacy and as_row
    return out, _index_column(rep, index_row), _index_column(group, index_row)


def _pair(fn: str, a: Any, b: Any, args: tuple[Any, ...]
          ) -> tuple[SetInput, SetInput, np.ndarray, np.ndarray, set[str], bool]:
    opts = _options(args, fn, ("stable", "sorted", "rows", "legacy"))
    rows = "rows" in opts
    text_peer = isinstance(a, (CellArray, StringArray)) or isinstance(b, (CellArray, StringArray))
    ia = SetInput(a, fn, rows, text_peer)
    ib = SetInput(b, fn, rows, text_peer)
    combined, ranks = _combine_items([ia, ib], rows)
    return ia, ib, combined, ranks, opts, rows


def _orientation(fn: str, ia: SetInput, ib: SetInput) -> bool:
    """Row output when the operands are row vectors (0x0 counts as either)."""
    if fn == "setdiff":
        return ia.is_row or (ia.is_empty_0x0 and ib.is_row)
    a_row = ia.is_row or ia.is_empty_0x0
    b_row = ib.is_row or ib.is_empty_0x0
    return a_row and b_row and not (ia.is_empty_0x0 and ib.is_empty_0x0)


def _set_op(fn: str, a: Any, b: Any, args: tuple[Any, ...], nargout: int) -> Any:
    ia, ib, combined, ranks, opts, rows = _pair(fn, a, b, args)
    na = ia.count()
    rep, group = _groups(ranks, "stable" in opts)
    in_a = np.zeros(rep.size, dtype=bool)
    in_b = np.zeros(rep.size, dtype=bool)
    in_a[group[:na]] = True
    in_b[group[na:]] = True
    legacy = "legacy" in opts
    pick = _last_positions if legacy else _first_positions
    first_a = pick(group[:na], rep.size)
    first_b = pick(group[na:], rep.size)
    if legacy and fn == "union":
        # Legacy union takes shared values from B.
        first_a = np.where(first_b >= 0, -1, first_a)
    if fn == "union":
        keep = in_a | in_b
    elif fn == "intersect":
        keep = in_a & in_b
    elif fn == "setdiff":
        keep = in_a & ~in_b
    else:
        keep = in_a ^ in_b
    groups = np.flatnonzero(keep)
    positions = np.where(first_a[groups] >= 0, first_a[groups], na + first_b[groups])
    if fn == "intersect":
        positions = first_a[groups]
    if fn == "union" and legacy:
        positions = np.where(first_b[groups] >= 0, na + first_b[groups], first_a[groups])
    as_row = _orientation(fn, ia, ib) and not rows
    if legacy and not rows:
        # Legacy results are rows unless both inputs are columns.
        as_row = not (_is_column(ia) and _is_column(ib))
    out = _build([ia, ib], combined, positions, rows, as_row)
    if nargout < 2:
        return out
    index_row = legacy and as_row
    if fn == "intersect":
        return out, _index_column(first_a[groups], index_row), _index_column(first_b[groups], index_row)
    if fn == "setdiff":
        return out, _index_column(first_a[groups], index_row)
    from_a = groups[first_a[groups] >= 0]
    from_b = groups[first_a[groups] < 0]
    return out, _index_column(first_a[from_a], index_row), _index_column(first_b[from_b], index_row)


@builtin("union", category="sets", nargin=(2, 4), nargout=(0, 3), wants_nargout=True)
def union(a: Any, b: Any, *args: Any, nargout: int = 1) -> Any:
    """Set union, [C, ia, ib] = union(A, B, ...), 'stable', 'rows'."""
    return _set_op("union", a, b, args, nargout)


@builtin("intersect", category="sets", nargin=(2, 4), nargout=(0, 3), wants_nargout=True)
def intersect(a: Any, b: Any, *args: Any, nargout: int = 1) -> Any:
    """Set intersection, [C, ia, ib] = intersect(A, B, ...)."""
    return _set_op("intersect", a, b, args, nargout)


@builtin("setdiff", category="sets", nargin=(2, 4), nargout=(0, 2), wants_nargout=True)
def setdiff(a: Any, b: Any, *args: Any, nargout: int = 1) -> Any:
    """Values of A not in B, [C, ia] = setdiff(A, B, ...)."""
    return _set_op("setdiff", a, b, args, nargout)


@builtin("setxor", category="sets", nargin=(2, 4), nargout=(0, 3), wants_nargout=True)
def setxor(a: Any, b: Any, *args: Any, nargout: int = 1) -> Any:
    """Values in exactly one of A and B, [C, ia, ib] = setxor(A, B, ...)."""
    return _set_op("setxor", a, b, args, nargout)


@builtin("ismember", category="sets", nargin=(2, 3), nargout=(0, 2), wants_nargout=True)
def ismember(a: Any, s: Any, *args: Any, nargout: int = 1) -> Any:
    """[tf, loc] = ismember(A, S): membership and lowest index in S;
    'rows' compares rows; a char vector against a cellstr is one string."""
    opts = _options(args, "ismember", ("rows", "legacy"))
    rows = "rows" in opts
    text_peer = isinstance(s, (CellArray, StringArray)) or isinstance(a, (CellArray, StringArray))
    ia = SetInput(a, "ismember", rows, text_peer)
    ib = SetInput(s, "ismember", rows, text_peer)
    combined, ranks = _combine_items([ia, ib], rows)
    na = ia.count()
    rep, group = _groups(ranks, stable=False)
    loc = _first_positions(group[na:], rep.size)[group[:na]]
    shape = (na, 1) if rows else ia.shape
    tf = (loc >= 0).reshape(shape, order="F")
    if nargout < 2:
        return canonical(tf)
    return canonical(tf), canonical((loc + 1).astype(np.float64).reshape(shape, order="F"))
