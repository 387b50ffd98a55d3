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
from matfuse.accelerate.router.compose_ops import assign, call, index, op, size_of
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


def _run_starts(sorted_col: Any, count: int) -> Any:
    """Logical column: where a sorted value differs from its predecessor."""
    if count == 1:
        return True
    later = index(sorted_col, np.arange(2.0, count + 1).reshape(-1, 1))
    earlier = index(sorted_col, np.arange(1.0, count).reshape(-1, 1))
    return call("vertcat", True, op("~=", later, earlier))


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
    values = index(ordered, starts)
    ia = index(order, starts)
    group = call("cumsum", call("double", starts))
    ic = assign(call("zeros", float(count), 1.0, _LIKE, group), [order], group)
    if "stable" in opts:
        ia, rank_order = call("sort", ia, nargout=2)
        values = index(col, ia)
        rank = assign(call("zeros", float(size_of(ia)[0]), 1.0, _LIKE, group), [rank_order],
                      _positions(group, size_of(ia)[0]))
        ic = index(rank, ic)
    if cls != "double":
        values = call(cls, values)
    if len(x.shape) == 2 and x.shape[0] == 1:
        values = call("reshape", values, 1.0, float(size_of(values)[0]))
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
    from_s = op("<=", order, float(ns))
    starts = _run_starts(ordered, total)
    positions = _positions(ordered, total)
    run_first = call("cummax", op(".*", call("double", starts), positions))
    found = index(from_s, run_first)    # read at the elements of a only
    where = index(order, run_first)
    in_a = call("not", from_s)
    a_places = op("-", index(order, in_a), float(ns))
    shape = [float(d) for d in size_of(a)]
    tf = assign(call("false", float(na), 1.0, _LIKE, found), [a_places], index(found, in_a))
    tf = call("reshape", tf, *shape)
    if nargout < 2:
        return [tf]
    loc = op(".*", call("double", found), where)
    loc = assign(call("zeros", float(na), 1.0, _LIKE, loc), [a_places], index(loc, in_a))
    return [tf, call("reshape", loc, *shape)]


COMPOSED = {"unique": unique_on_device, "ismember": ismember_on_device}
