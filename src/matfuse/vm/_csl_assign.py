"""Comma-separated-list targets of a multiple assignment.

In ``[c{:}] = deal(0)``, ``[s.v] = deal(9)``, ``[s(1:2).f] = f()`` or
``[a, c{2:3}] = q{:}`` a target stands for as many outputs as the elements it
selects: ``c{idx}`` selects the cell elements ``idx`` names, ``base.f``
every element of the struct array ``base``. The counts are taken from the
current values before the right-hand side runs (it is called with their sum
as nargout); then each target takes its share of the values:

* ``c{idx}`` with k values assigns ``c(idx) = {v1, ..., vk}``;
* ``base.f`` with k values sets field ``f`` of each of the k elements and
  assigns the struct array back to ``base``.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.lang import ast
from matfuse.runtime import indexing as _ix
from matfuse.runtime._subscripts import is_colon
from matfuse.runtime.classdef_arrays import ObjectArray
from matfuse.runtime.values import CellArray, StructArray, numel
from matfuse.vm import _calls
from matfuse.vm.names import target_root


def is_csl_target(target: ast.Expr) -> bool:
    """A target that may stand for several outputs (``c{..}``, ``x.f``)."""
    return ((type(target) is ast.Index and target.kind == "{}")
            or type(target) is ast.Field or type(target) is ast.DynField)


def _count_mismatch() -> MatlabError:
    return MatlabError("MATLAB:needMoreRhsOutputs",
                       "Insufficient number of outputs from right hand side of equal sign "
                       "to satisfy assignment.")


class CslTarget:
    """One target that may stand for several outputs."""

    def __init__(self, target: ast.Expr, exprs: Any, targets: Any):
        self.node = target
        base = target.base
        root = target_root(target)
        self.root = root
        self.read_root = _calls.plain_reader(root) if root is not None else None
        self.base_value = exprs.value(base)
        if type(target) is ast.Index:
            self.kind = "{}"
            self.level = targets._level(target)
            # ``c{idx} = {...}`` as ``c(idx) = cell``
            paren = ast.Index(target.span, base, target.args, "()")
            _, self.paren_setter = targets.compile(paren)
            self.single_setter = targets.compile(target)[1]
        else:
            self.kind = "."
            self.name = target.name if type(target) is ast.Field else None
            self.name_fn = (exprs.value(target.name_expr)
                            if type(target) is ast.DynField else None)
            _, self.base_setter = targets.compile(base)
            self.single_setter = targets.compile(target)[1]

    def _current_base(self, fr: Any) -> Any:
        """The value the target indexes, or None when it does not exist yet."""
        if self.read_root(fr) is _calls.MISSING:
            return None
        try:
            return self.base_value(fr)
        except MatlabError as err:
            if err.identifier in ("MATLAB:badsubscript", "MATLAB:index:outOfBounds",
                                  "MATLAB:nonExistentField"):
                return None
            raise

    def count(self, fr: Any) -> tuple[int, Any]:
        """(number of outputs, state needed by ``assign``)."""
        cur = self._current_base(fr)
        if self.kind == "{}":
            from matfuse.vm._assign import _key

            idx = _key(fr, self.level, cur)
            return _selection_count(cur, idx), (cur, idx)
        if isinstance(cur, (StructArray, ObjectArray)):
            return cur.data.size, cur
        return 1, cur

    def assign(self, fr: Any, state: Any, values: list) -> None:
        if len(values) == 1 and not (self.kind == "." and isinstance(
                state, (StructArray, ObjectArray)) and state.data.size != 1):
            self.single_setter(fr, values[0])
            return
        if self.kind == "{}":
            cur, idx = state
            shape = _selection_shape(cur, idx, len(values))
            self.paren_setter(fr, CellArray.from_list(values, shape))
            return
        name = self.name if self.name is not None else _calls.field_name(self.name_fn(fr))
        self.base_setter(fr, _with_field_values(state, name, values))


def _selection_count(cur: Any, idx: list) -> int:
    if type(cur) is CellArray:
        try:
            return len(_ix.brace_get(cur, idx))
        except MatlabError:
            pass    # beyond the end: the cell grows
    return _subscript_count(cur, idx)


def _subscript_count(cur: Any, idx: list) -> int:
    """Elements named by subscripts (growing the value is allowed)."""
    total = 1
    shape = cur.shape if cur is not None else (0, 0)
    for k, sub in enumerate(idx):
        if is_colon(sub):
            if cur is None:
                raise MatlabError("MATLAB:needMoreRhsOutputs",
                                  "Insufficient number of outputs from right hand side of "
                                  "equal sign to satisfy assignment.")
            extent = numel(cur) if len(idx) == 1 else (
                shape[k] if k < len(shape) else 1)
            total *= extent
            continue
        arr = np.asarray(sub)
        total *= int(np.count_nonzero(arr)) if arr.dtype == np.bool_ else int(arr.size)
    return total


def _selection_shape(cur: Any, idx: list, count: int) -> tuple[int, ...]:
    if type(cur) is CellArray:
        try:
            return _ix.paren_get(cur, idx).shape
        except MatlabError:
            pass
    return (1, count)


def _with_field_values(cur: Any, name: str, values: list) -> Any:
    """A copy of struct (or object) array ``cur`` whose elements' field
    (property) ``name`` take ``values`` in column-major order."""
    if type(cur) is ObjectArray:
        flat = cur.data.reshape(-1, order="F")
        out = np.empty(flat.size, dtype=object)
        for i, element in enumerate(flat):
            out[i] = element.set_property(name, values[i])
        return ObjectArray(cur.cls, out.reshape(cur.data.shape, order="F"))
    if cur is None:
        return StructArray.scalar({name: values[0]})
    fields = list(cur.fields) if name in cur.fields else list(cur.fields) + [name]
    flat = cur.data.reshape(-1, order="F")
    out = np.empty(flat.size, dtype=object)
    for i, element in enumerate(flat):
        new = dict(element)
        new[name] = values[i]
        out[i] = new
    return StructArray(fields, out.reshape(cur.data.shape, order="F"))


def csl_multi_assign(targets: list[ast.Expr], exprs: Any, target_compiler: Any,
                     rhs: Callable[[Any, int], list]) -> Callable[[Any], list[str | None]]:
    """The runner of ``[t1, t2, ...] = rhs`` with cs-list targets; returns
    the roots assigned (for display)."""
    plans: list[Any] = []
    for t in targets:
        if isinstance(t, ast.Tilde):
            plans.append(None)
        elif is_csl_target(t):
            plans.append(CslTarget(t, exprs, target_compiler))
        else:
            plans.append(target_compiler.compile(t))

    def run(fr: Any) -> list[str | None]:
        counts: list[int] = []
        states: list[Any] = []
        for plan in plans:
            if isinstance(plan, CslTarget):
                n, state = plan.count(fr)
            else:
                n, state = 1, None
            counts.append(n)
            states.append(state)
        total = sum(counts)
        values = rhs(fr, total)
        if len(values) < total:
            # trailing ~ targets may go unfilled
            last_real = max((i for i, p in enumerate(plans) if p is not None), default=-1)
            if len(values) < sum(counts[:last_real + 1]):
                raise _count_mismatch()
        roots: list[str | None] = []
        pos = 0
        for plan, n, state in zip(plans, counts, states):
            share = values[pos:pos + n]
            pos += n
            if plan is None:
                continue
            if isinstance(plan, CslTarget):
                if n == 0:
                    continue
                plan.assign(fr, state, share)
                roots.append(plan.root)
            else:
                root, setter = plan
                setter(fr, share[0])
                roots.append(root)
        return roots
    return run
