"""Device paths of ``unique`` and ``ismember`` on one stable device sort.

``unique(x)`` sorts ``x(:)`` with its positions (equal values keep their
order, NaNs last); a value starts a group where it differs from its
predecessor (each NaN its own group, as MATLAB's ``unique`` keeps every
NaN). The group starts give ``C`` and ``ia`` (first occurrences), the
running count of starts scattered back to the sorted positions gives
``ic``. ``'stable'`` orders the groups by ``ia``.

``ismember(a, s)`` sorts ``[s(:); a(:)]``: among equal values the elements
of ``s`` come first, lowest index first, so an element of ``a`` is a member
exactly when the first element of its run of equal values belongs to
``s``, and ``loc`` is that element's index. A running maximum of the run
starts' positions finds each run's first element.

Both compare in double (integers up to 32 bits and singles are exact
there) after converting the operands to the class MATLAB compares them in.
Empty, complex, 64-bit integer and text operands and the ``'rows'``,
``'last'`` and ``'legacy'`` options return None: the dispatcher's counted
host fallback.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import call, index, op, size_of
from matfuse.accelerate.router.indexing import gather_at, scatter_at
from matfuse.accelerate.router.mask_index import mask_positions
from matfuse.runtime.values import char_array, is_char, to_str

_CLASSES = ("double", "single", "logical", "int8", "uint8", "int16", "uint16", "int32", "uint32")
_INTEGERS = _CLASSES[3:]
_LIKE = char_array("like")


def _operand_class(v: Any) -> str | None:
    """The MATLAB class of a real non-empty numeric or logical operand."""
    if isinstance(v, GpuArray):
        return None if v.is_complex() or 0 in v.shape else v.matlab_class
    if type(v) is float:
        return "double"
    if type(v) is bool:
        return "logical"
    if type(v) is np.ndarray and v.size and v.dtype.kind in "fbiu":
        cls = {"f": "single" if v.dtype == np.float32 else "double", "b": "logical"}.get(
            v.dtype.kind, str(v.dtype))
        return cls if cls in _CLASSES else None
    return None


def _common_class(classes: list[str]) -> str:
    """The class the set functions compare in: the first integer class, else
    single when any operand is single, logical when all are, else double."""
    for c in classes:
        if c in _INTEGERS:
            return c
    if all(c == "logical" for c in classes):
        return "logical"
    return "single" if "single" in classes else "double"


def _options(args: list[Any], allowed: tuple[str, ...]) -> set[str] | None:
    words = set()
    for a in args:
        if not is_char(a):
            return None
        word = to_str(a).lower()
        if word not in allowed:
            return None
        words.add(word)
    return words


def _column(v: Any, cls: str) -> Any:
    """``v(:)`` converted to ``cls``, then to double for the comparisons."""
    count = float(np.prod(size_of(v)))
    col = call("reshape", v, count, 1.0)
    if _operand_class(col) != cls:
        col = call(cls, col)
    return col if cls == "double" else call("double", col)


def _positions(like: Any, count: int) -> Any:
    """The column ``1:count`` made on the device (a running sum of ones)."""
    return call("cumsum", call("ones", float(count), 1.0, _LIKE, like))


def _zero_based(k: Any) -> GpuArray:
    """1-based positions (doubles from device code) as 0-based int32."""
    return call("int32", op("-", k, 1.0))


def _run_starts(sorted_col: Any, count: int) -> Any:
    """Logical column: where a sorted value differs from its predecessor,
    the first always (NaN differs from everything)."""
    before = call("nan", 1.0, 1.0, _LIKE, sorted_col)
    if count > 1:
        before = call("vertcat", before, index(sorted_col, np.arange(1.0, count).reshape(-1, 1)))
    return op("~=", sorted_col, before)


def unique_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``[C, ia, ic] = unique(x)`` and ``unique(x, 'stable')`` of a gpuArray."""
    x = args[0]
    cls = _operand_class(x) if isinstance(x, GpuArray) else None
    opts = _options(args[1:], ("sorted", "stable", "first"))
    if cls is None or opts is None or ("sorted" in opts and "stable" in opts):
        return None
    count = x.numel
    col = _column(x, cls)
    ordered, order = call("sort", col, nargout=2)
    starts = _run_starts(ordered, count)
    at_starts = mask_positions(x.provider, starts)      # one count read back
    groups = at_starts.numel
    values = gather_at(ordered, at_starts, (groups, 1))
    ia = gather_at(order, at_starts, (groups, 1))
    group = call("cumsum", call("double", starts))
    ic = scatter_at(call("zeros", float(count), 1.0, _LIKE, group), _zero_based(order), group)
    if "stable" in opts:
        ia, rank_order = call("sort", ia, nargout=2)
        values = gather_at(col, _zero_based(ia), (groups, 1))
        rank = scatter_at(call("zeros", float(groups), 1.0, _LIKE, group),
                          _zero_based(rank_order), _positions(group, groups))
        ic = gather_at(rank, _zero_based(ic), (count, 1))
    if cls != "double":
        values = call(cls, values)
    if len(x.shape) == 2 and x.shape[0] == 1:
        values = call("reshape", values, 1.0, float(groups))
    return [values, ia, ic][:max(nargout, 1)]


def ismember_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``[tf, loc] = ismember(a, s)`` with a gpuArray operand."""
    if len(args) != 2:
        return None
    a, s = args
    classes = [_operand_class(a), _operand_class(s)]
    if None in classes:
        return None
    cls = _common_class(classes)
    na, ns = int(np.prod(size_of(a))), int(np.prod(size_of(s)))
    total = na + ns
    joined = call("vertcat", _column(s, cls), _column(a, cls))
    ordered, order = call("sort", joined, nargout=2)
    starts = _run_starts(ordered, total)
    positions = _positions(ordered, total)
    # each element's run start, and whether an element of s is there
    run_first = _zero_based(call("cummax", op(".*", call("double", starts), positions)))
    from_s = op("<=", order, float(ns))
    found = call("double", gather_at(from_s, run_first, (total, 1)))
    loc = op(".*", found, gather_at(order, run_first, (total, 1)))
    # back to the joined order; a's elements are its last na positions
    zeros = call("zeros", float(total), 1.0, _LIKE, found)
    back = _zero_based(order)
    tail = np.arange(ns + 1.0, total + 1.0).reshape(-1, 1)
    shape = [float(d) for d in size_of(a)]
    tf = op("~=", index(scatter_at(zeros, back, found), tail), 0.0)
    tf = call("reshape", tf, *shape)
    if nargout < 2:
        return [tf]
    return [tf, call("reshape", index(scatter_at(zeros, back, loc), tail), *shape)]


COMPOSED = {"unique": unique_on_device, "ismember": ismember_on_device}
