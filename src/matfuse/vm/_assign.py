"""Assignment targets: ``x = v``, ``s(2).a{3}(4) = v``, ``x(2) = []``.

A chained target is get-modify-set: read each level with
``paren_get``/``brace_get``/``field_get`` (a level that does not exist yet
reads as ``None``), assign into the innermost one, then write every level
back outwards with ``paren_set``/``brace_set``/``field_set``.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.lang import ast
from matfuse.runtime import indexing as _ix
from matfuse.runtime.values import CellArray, DeviceValue, StructArray
from matfuse.vm import _calls

Setter = Callable[[Any, Any], None]


def _chain(target: ast.Expr) -> tuple[str, list[ast.Expr]]:
    """Root variable name and the index/field levels from the root outwards."""
    levels: list[ast.Expr] = []
    node = target
    while not isinstance(node, ast.Ident):
        if isinstance(node, (ast.Index, ast.Field, ast.DynField)):
            levels.append(node)
            node = node.base
        else:
            raise MatlabError("MATLAB:parse", "Invalid assignment target.", target.span)
    levels.reverse()
    return node.name, levels


class _Level:
    """One compiled level of a target chain."""

    __slots__ = ("kind", "name", "name_fn", "cell", "build")

    def __init__(self, kind: str, name: str | None = None, name_fn: Any = None,
                 cell: list | None = None, build: Any = None):
        self.kind = kind          # "()", "{}", "." (static) or ".()" (dynamic)
        self.name = name
        self.name_fn = name_fn
        self.cell = cell
        self.build = build


def _empty() -> np.ndarray:
    return np.zeros((0, 0))


class TargetCompiler:
    def __init__(self, exprs: Any, ctx: Any):
        self.exprs = exprs
        self.ctx = ctx

    def variable_writer(self, name: str) -> Setter:
        special = self.ctx.special_writer(name)
        if special is not None:
            return special

        def write(fr: Any, value: Any) -> None:
            fr[name] = value
        return write

    def compile(self, target: ast.Expr) -> tuple[str | None, Setter]:
        """(root variable name, setter(frame, rhs))."""
        if isinstance(target, ast.Tilde):
            return None, lambda fr, value: None
        root, levels = _chain(target)
        write = self.variable_writer(root)
        if not levels:
            return root, write
        special = self.ctx.special_reader(root)
        read = special or _calls.plain_reader(root)
        compiled = [self._level(lv) for lv in levels]
        if special is None and len(compiled) == 1 and compiled[0].kind in ("()", "{}"):
            return root, _index_assign(root, compiled[0])
        if special is None and len(compiled) == 1 and compiled[0].kind == ".":
            return root, _field_assign(root, compiled[0].name)

        def assign_chain(fr: Any, rhs: Any) -> None:
            cur = read(fr)
            if cur is _calls.MISSING:
                cur = None
            write(fr, _set_level(fr, cur, compiled, 0, rhs))
        return root, assign_chain

    def _level(self, node: ast.Expr) -> _Level:
        if isinstance(node, ast.Field):
            return _Level(".", name=node.name)
        if isinstance(node, ast.DynField):
            return _Level(".()", name_fn=self.exprs.value(node.name_expr))
        from matfuse.vm.names import contains_end

        cell = [None] if any(contains_end(a) for a in node.args) else None
        return _Level(node.kind, cell=cell, build=self.exprs.index_args(node.args, cell))


# References to a value held only by the workspace dict and the local name
# (getrefcount's own argument and _unshared's parameter add one each; the
# checks below add those): nobody else can see an in-place update.
_UNSHARED_REFS = 3


def _owns_buffer(arr: np.ndarray, getrefcount: Callable[[Any], int] = sys.getrefcount) -> bool:
    """``arr`` owns its memory, or is the only view of a base nobody else sees."""
    base = arr.base
    while base is not None:
        # held by the view's .base, the local name and the call argument
        if type(base) is not np.ndarray or getrefcount(base) > 3:
            return False
        base = base.base
    return True


def _unshared(cur: Any, getrefcount: Callable[[Any], int] = sys.getrefcount) -> bool:
    """True when only the workspace holds ``cur`` (and its element buffer)."""
    t = type(cur)
    if t is np.ndarray:
        return getrefcount(cur) <= _UNSHARED_REFS + 1 and _owns_buffer(cur)
    if t is CellArray:
        data = cur.data
        return (getrefcount(cur) <= _UNSHARED_REFS + 1 and getrefcount(data) <= 2 + 1
                and _owns_buffer(data))
    if isinstance(cur, DeviceValue):
        # A fusion graph reading the buffer holds the value too (its input
        # node's owner), so a shared device buffer never looks unshared.
        return getrefcount(cur) <= _UNSHARED_REFS + 1
    return False


def _index_assign(name: str, level: _Level) -> Setter:
    """``x(idx) = rhs`` / ``c{idx} = rhs``: updates in place when the value is
    not shared (copy-on-write, like MATLAB), so fill loops stay O(n)."""
    setter = _ix.paren_set if level.kind == "()" else _ix.brace_set

    def assign_index(fr: Any, rhs: Any) -> None:
        idx = _key(fr, level, fr.get(name))
        cur = fr.get(name)
        if _unshared(cur):
            fr[name] = setter(cur, idx, rhs, inplace=True)
        else:
            fr[name] = setter(cur, idx, rhs)
    return assign_index


def _field_assign(name: str, field: str) -> Setter:
    """``s.f = rhs``: replaces the value of an existing field of an unshared
    scalar struct in place; anything else goes through ``field_set``."""
    field_set = _ix.field_set
    getrefcount = sys.getrefcount

    def assign_field(fr: Any, rhs: Any) -> None:
        cur = fr.get(name)
        if (type(cur) is StructArray and cur.data.size == 1 and field in cur.fields
                and getrefcount(cur) <= _UNSHARED_REFS):
            data = cur.data
            # data: the wrapper's slot, this local, the argument.
            if getrefcount(data) <= 3 and _owns_buffer(data):
                element = data.reshape(-1)[0]
                # element: the array slot, this local, the argument.
                if getrefcount(element) <= 3:
                    element[field] = rhs
                    return
        fr[name] = field_set(cur, field, rhs)
    return assign_field


def _key(fr: Any, level: _Level, cur: Any) -> Any:
    if level.kind == ".":
        return level.name
    if level.kind == ".()":
        return _calls.new_field_name(level.name_fn(fr))
    cell = level.cell
    if cell is None:
        return level.build(fr)
    old = cell[0]
    cell[0] = _empty() if cur is None else cur
    try:
        return level.build(fr)
    finally:
        cell[0] = old


def _get_or_none(cur: Any, level: _Level, key: Any) -> Any:
    """The current value at one level, or None/default when it does not exist yet."""
    if cur is None:
        return None
    if level.kind == "()":
        return _ix.lvalue_paren_get(cur, key)
    if level.kind == "{}":
        return _ix.lvalue_brace_get(cur, key)
    return _ix.lvalue_field_get(cur, key)


def _put(cur: Any, level: _Level, key: Any, rhs: Any) -> Any:
    if level.kind == "()":
        return _ix.paren_set(cur, key, rhs)
    if level.kind == "{}":
        return _ix.brace_set(cur, key, rhs)
    return _ix.field_set(cur, key, rhs)


def _set_level(fr: Any, cur: Any, levels: list[_Level], i: int, rhs: Any) -> Any:
    level = levels[i]
    key = _key(fr, level, cur)
    if i == len(levels) - 1:
        return _put(cur, level, key, rhs)
    inner = _get_or_none(cur, level, key)
    return _put(cur, level, key, _set_level(fr, inner, levels, i + 1, rhs))


def is_delete_rhs(target: ast.Expr, value: ast.Expr) -> bool:
    """``x(idx) = []`` deletes: a paren target and a literal empty ``[]``."""
    if not (isinstance(target, ast.Index) and target.kind == "()"):
        return False
    return isinstance(value, ast.Matrix) and not any(row for row in value.rows)
