"""parfor reductions and slices: recording contributions, folding them in
iteration order, and moving sliced variables' blocks.

A reduction statement ``s = s + f(i)`` runs as ``_parfor_contribute('s',
'+', f(i))``: each iteration's contribution is recorded (``Recorder``) and
the client folds ``s0 + c1 + c2 + ...`` in iteration order, so a parfor
gives the same value as the serial loop whatever the chunking.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.parallel.classify import SliceForm
from matfuse.parallel.reduction_forms import Reduction
from matfuse.runtime import ops as _ops
from matfuse.runtime._concat import cat_values
from matfuse.runtime.indexing import COLON, paren_get, paren_set
from matfuse.runtime.values import shape_of


# Contributions are kept one per iteration up to this many bytes per
# variable and chunk; beyond it they are combined as they come (in order),
# so memory stays bounded. Floating-point sums may then differ from the
# serial loop's in the last bits, as the grouping differs.
KEEP_BYTES = 32 * 1024 * 1024


class Recorder:
    """Contributions of the iterations run here: name -> [(iteration, op, values)].

    ``reductions`` and ``call`` (``call(name, args)`` calls a MATLAB
    function) let it combine contributions past ``KEEP_BYTES``."""

    def __init__(self, reductions: dict[str, Reduction] | None = None, call: Any = None):
        self.iteration = 0.0
        self.contributions: dict[str, list[tuple[float, str, list[Any]]]] = {}
        self.reductions = reductions or {}
        self.call = call
        self.sizes: dict[str, int] = {}

    def add(self, name: str, op: str, values: list[Any]) -> None:
        entries = self.contributions.setdefault(name, [])
        entries.append((self.iteration, op, values))
        size = self.sizes.get(name, 0) + _nbytes(values)
        red = self.reductions.get(name)
        if size > KEEP_BYTES and len(entries) > 1 and red is not None and self.call is not None:
            combined = combine(red, entries, self.call)
            self.contributions[name] = [combined]
            size = _nbytes(combined[2])
        self.sizes[name] = size


def _nbytes(values: list[Any]) -> int:
    return sum(v.nbytes if isinstance(v, np.ndarray) else 8 for v in values)


def combine(red: Reduction, entries: list[tuple[float, str, list[Any]]],
            call: Any) -> tuple[float, str, list[Any]]:
    """One entry equivalent to ``entries`` (in iteration order) when folded."""
    ordered = sorted(entries, key=lambda e: e[0])
    first = ordered[0][0]
    values = [vals[0] for _, _, vals in ordered]
    if red.kind == "concat":
        parts = values if red.left else values[::-1]
        return first, red.op, [cat_values(parts, 1 if red.op == "h" else 0)]
    if red.kind == "call":
        partial = values[0]
        for v in values[1:]:
            partial = call(red.op, [partial, v])
        return first, red.op, [partial]
    if red.op in ("+", "-"):
        partial = None
        for _, op, vals in ordered:
            term = vals[0] if op == "+" else _ops.unary("-", vals[0])
            partial = term if partial is None else _ops.binary("+", partial, term)
        return first, "+", [partial]
    partial = values[0]
    for v in values[1:]:
        partial = _ops.binary(red.op, partial, v) if red.left else _ops.binary(red.op, v, partial)
    return first, red.op, [partial]


# Active recorders (innermost last): a parfor inside a function called from a
# parfor body runs serially with its own recorder.
RECORDERS: list[Recorder] = []


def contribute(name: str, op: str, values: list[Any]) -> None:
    if not RECORDERS:
        raise MatlabError("MATLAB:parfor:contributionOutsideLoop",
                          "A reduction contribution was made outside a PARFOR loop.")
    RECORDERS[-1].add(name, op, values)


def fold(initial: Any, red: Reduction, entries: list[tuple[float, str, list[Any]]],
         call: Any) -> Any:
    """``initial`` combined with each contribution, in iteration order.
    ``call(name, args)`` calls a MATLAB function (min, max, union, ...)."""
    value = initial
    for _, op, values in sorted(entries, key=lambda e: e[0]):
        if red.kind == "op":
            c = values[0]
            value = _ops.binary(op, value, c) if red.left else _ops.binary(op, c, value)
        elif red.kind == "concat":
            axis = 1 if red.op == "h" else 0
            parts = [value] + values if red.left else values + [value]
            value = cat_values(parts, axis)
        else:
            args = [value, values[0]] if red.left else [values[0], value]
            value = call(red.op, args)
    return value


# ------------------------------------------------------------------ slices
def offset_value(form: SliceForm, read: Any) -> int:
    """The integer offset of a slice form; ``read(name)`` reads a broadcast name."""
    if form.offset is None:
        return 0
    from matfuse.lang import ast

    if type(form.offset) is ast.Number:
        raw: Any = form.offset.value
    else:
        raw = read(form.offset.name)
    arr = np.asarray(raw)
    if arr.size != 1 or not np.isreal(arr) or float(arr.real.reshape(-1)[0]) % 1 != 0:
        raise MatlabError("MATLAB:parfor:InvalidSlicedVariableOffset",
                          "The offset of a sliced variable's index must be a constant scalar "
                          "integer.")
    return form.offset_sign * int(arr.real.reshape(-1)[0])


def subscripts(form: SliceForm, positions: list[int]) -> list[Any]:
    """Subscripts selecting the slices at 1-based ``positions``."""
    subs: list[Any] = [COLON] * form.nsub
    subs[form.dim] = np.asarray(positions, dtype=np.float64).reshape(1, -1)
    return subs


def extent(form: SliceForm, value: Any) -> int:
    """How many slices ``value`` has along the sliced subscript."""
    shape = shape_of(value)
    if form.nsub == 1:
        return int(np.prod(shape))
    if form.dim == form.nsub - 1:
        return int(np.prod(shape[form.dim:]))
    return int(shape[form.dim]) if form.dim < len(shape) else 1


def take_block(form: SliceForm, value: Any, positions: list[int]) -> tuple[list[int], Any]:
    """(positions present in ``value``, their slices)."""
    n = extent(form, value)
    present = [p for p in positions if 1 <= p <= n]
    if not present:
        return [], None
    return present, paren_get(value, subscripts(form, present))


def put_block(form: SliceForm, value: Any, positions: list[int], block: Any) -> Any:
    """``value`` with the slices at ``positions`` set to ``block``
    (``value`` None: a new variable, grown as MATLAB's indexed assignment does)."""
    if not positions:
        return value
    return paren_set(value, subscripts(form, positions), block)
