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
from matfuse.runtime.values import CellArray, StructArray
from matfuse.vm import _calls
from matfuse.vm._element_setters import (
    cell_field_assign, element_assign, plain_subscript, struct_field_assign,
)
from matfuse.vm._nested_setter import nested_assign
from matfuse.vm._ownership import exclusive

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
            if _is_end_plus_one(levels[0]):
                general = _index_assign(root, compiled[0])
                if compiled[0].kind == "()":
                    return root, _append_assign(root, general)
                return root, _cell_append_assign(root, general)
            if plain_subscript(levels[0]):
                return root, element_assign(root, compiled[0].kind, levels[0].args[0],
                                             _index_assign(root, compiled[0]))
            return root, _index_assign(root, compiled[0])
        if special is None and len(compiled) == 1 and compiled[0].kind == ".":
            return root, _field_assign(root, compiled[0].name)
        if special is None and len(compiled) == 2 and compiled[0].kind == "()" \
                and compiled[1].kind == "." and plain_subscript(levels[0]):
            general = _chain_assign(root, read, write, compiled, special)
            return root, struct_field_assign(root, levels[0].args[0], compiled[1].name,
                                              general)
        if special is None and len(compiled) == 2 and compiled[0].kind == "{}" \
                and compiled[1].kind == "." and plain_subscript(levels[0]):
            general = _chain_assign(root, read, write, compiled, special)
            return root, cell_field_assign(root, levels[0].args[0], compiled[1].name,
                                            general)
        if special is None and len(compiled) == 1 and compiled[0].kind == ".()":
            return root, _dynamic_field_assign(root, compiled[0].name_fn)
        general = _chain_assign(root, read, write, compiled, special)
        if special is None:
            nested = nested_assign(root, levels, general)
            if nested is not None:
                return root, nested
        return root, general

    def _level(self, node: ast.Expr) -> _Level:
        if isinstance(node, ast.Field):
            return _Level(".", name=node.name)
        if isinstance(node, ast.DynField):
            return _Level(".()", name_fn=self.exprs.value(node.name_expr))
        from matfuse.vm.names import contains_end

        cell = [None] if any(contains_end(a) for a in node.args) else None
        return _Level(node.kind, cell=cell, build=self.exprs.index_args(node.args, cell))


def _chain_assign(root: str, read: Callable[[Any], Any], write: Setter,
                  compiled: list[_Level], special: Any) -> Setter:
    """The general setter of a chain of levels (``s.a{2}(3).b = rhs``)."""
    def assign_chain(fr: Any, rhs: Any) -> None:
        cur = read(fr)
        if cur is _calls.MISSING:
            cur = None
        # cur: the workspace dict and this local (a global or persistent
        # lives elsewhere too: never updated in place here).
        owned = special is None and exclusive(cur, 2)
        write(fr, _set_level(fr, cur, compiled, 0, rhs, owned))
    return assign_chain


def _index_assign(name: str, level: _Level) -> Setter:
    """``x(idx) = rhs`` / ``c{idx} = rhs``: updates in place when the value is
    not shared (copy-on-write, like MATLAB), so fill loops stay O(n)."""
    setter = _ix.paren_set if level.kind == "()" else _ix.brace_set

    def assign_index(fr: Any, rhs: Any) -> None:
        idx = _key(fr, level, fr.get(name))
        cur = fr.get(name)
        # cur: the workspace dict and this local (decided before ``cur`` is
        # pushed as the setter's argument, which would count as a holder).
        inplace = exclusive(cur, 2)
        fr[name] = setter(cur, idx, rhs, inplace=inplace)
    return assign_index


def _is_end_plus_one(node: ast.Expr) -> bool:
    """``x(end+1)``: one subscript, ``end + 1``."""
    if type(node) is not ast.Index or len(node.args) != 1:
        return False
    arg = node.args[0]
    return (type(arg) is ast.Binary and arg.op == "+" and type(arg.left) is ast.End
            and type(arg.right) is ast.Number and arg.right.value == 1)


def _append_assign(name: str, general: Setter) -> Setter:
    """``x(end+1) = v``: a double scalar appended to an unshared double
    vector goes straight into the vector's spare capacity; everything else
    takes the ``general`` index assignment."""
    append = _ix.append_double

    def assign_append(fr: Any, rhs: Any) -> None:
        cur = fr.get(name)
        if type(rhs) is float and type(cur) is np.ndarray and cur.dtype == _F64 \
                and cur.ndim == 2 and cur.size and exclusive(cur, 2):
            grown = append(cur, rhs)
            if grown is not None:
                fr[name] = grown
                return
        general(fr, rhs)
    return assign_append


def _cell_append_assign(name: str, general: Setter) -> Setter:
    """``c{end+1} = v``: appended to an unshared cell vector in its spare
    capacity; everything else takes the ``general`` brace assignment."""
    append = _ix.append_cell

    def assign_cell_append(fr: Any, rhs: Any) -> None:
        cur = fr.get(name)
        if type(cur) is CellArray and exclusive(cur, 2):
            grown = append(cur, rhs)
            if grown is not None:
                fr[name] = grown
                return
        general(fr, rhs)
    return assign_cell_append


_F64 = np.dtype(np.float64)


def _field_assign(name: str, field: str) -> Setter:
    """``s.f = rhs``: an unshared struct is updated in place (``field_set``
    still copies an element dict another struct shares)."""
    field_set = _ix.field_set

    def assign_field(fr: Any, rhs: Any) -> None:
        cur = fr.get(name)
        inplace = type(cur) is StructArray and exclusive(cur, 2)
        fr[name] = field_set(cur, field, rhs, inplace=inplace)
    return assign_field


def _dynamic_field_assign(name: str, name_fn: Callable[[Any], Any]) -> Setter:
    """``s.(expr) = rhs``: what the chain does for one dynamic field level
    (the name checked as a new field's, an unshared struct updated in
    place), without the chain's per-level dispatch."""
    field_set = _ix.field_set
    new_field_name = _calls.new_field_name

    def assign_dynamic_field(fr: Any, rhs: Any) -> None:
        cur = fr.get(name)
        field = new_field_name(name_fn(fr))
        inplace = type(cur) is StructArray and exclusive(cur, 2)
        fr[name] = field_set(cur, field, rhs, inplace=inplace)
    return assign_dynamic_field


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


def _put(cur: Any, level: _Level, key: Any, rhs: Any, owned: bool) -> Any:
    if level.kind == "()":
        return _ix.paren_set(cur, key, rhs, inplace=owned)
    if level.kind == "{}":
        return _ix.brace_set(cur, key, rhs, inplace=owned)
    return _ix.field_set(cur, key, rhs, inplace=owned and type(cur) is StructArray)


def _set_level(fr: Any, cur: Any, levels: list[_Level], i: int, rhs: Any,
               owned: bool) -> Any:
    """New value of ``cur`` after assigning ``rhs`` at ``levels[i:]``.

    ``owned``: nobody but this assignment's chain holds ``cur``, so it is
    updated in place and the levels inside it are reached by reference
    (each checked in turn); otherwise each level is copied on write."""
    level = levels[i]
    key = _key(fr, level, cur)
    if i == len(levels) - 1:
        return _put(cur, level, key, rhs, owned)
    if owned:
        kind = level.kind
        if kind == "()" and levels[i + 1].kind in (".", ".()"):
            done = _struct_element_field(fr, cur, key, levels, i, rhs)
            if done is not None:
                return done
        elif kind == "{}" and type(cur) is CellArray:
            where = _element_index(cur.data.shape, key)
            if where is not None:
                data = cur.data
                inner = data[where]
                # inner: the cell's slot and this local.
                inner_owned = exclusive(inner, 2)
                data[where] = _set_level(fr, inner, levels, i + 1, rhs, inner_owned)
                return cur
        elif kind in (".", ".()") and type(cur) is StructArray and cur.data.size == 1:
            element = cur.data.reshape(-1)[0]
            # element: the array's slot, this local, the argument.
            if sys.getrefcount(element) <= 3:
                inner = element.get(key)
                inner_owned = inner is not None and exclusive(inner, 2)
                value = _set_level(fr, inner, levels, i + 1, rhs, inner_owned)
                if key in element:
                    element[key] = value
                else:
                    _add_field(cur, key, value, element)
                return cur
    inner = _get_or_none(cur, level, key)
    return _put(cur, level, key, _set_level(fr, inner, levels, i + 1, rhs, False), owned)


def _element_index(shape: tuple[int, ...], key: list) -> tuple[int, ...] | None:
    """The ndarray index of ``x(key)`` when ``key`` names one existing
    element by positive integer subscripts, else None."""
    n = len(key)
    if n == 1:
        k = key[0]
        if type(k) is not float or not 1.0 <= k <= 9.2e18 or k != int(k):
            return None
        p = int(k) - 1
        if len(shape) == 2:
            rows = shape[0]
            return (p % rows, p // rows) if p < rows * shape[1] else None
        size = 1
        for d in shape:
            size *= d
        if p >= size:
            return None
        return tuple(int(x) for x in np.unravel_index(p, shape, order="F"))
    if n != len(shape):
        return None
    where = []
    for k, d in zip(key, shape):
        if type(k) is not float or not 1.0 <= k <= d or k != int(k):
            return None
        where.append(int(k) - 1)
    return tuple(where)


def _struct_element_field(fr: Any, cur: Any, key: list, levels: list[_Level], i: int,
                          rhs: Any) -> Any:
    """``s(key).name... = rhs`` on an owned struct array: the element's dict
    is updated in place (the array grown, with capacity, when ``key`` is past
    its end). None when ``key`` is not one positive integer position (the
    general path handles it)."""
    if cur is None or _ix_is_empty_double(cur):
        cur = StructArray([], np.empty((0, 0), dtype=object))
    elif type(cur) is not StructArray:
        return None
    if not key or any(type(k) is not float for k in key):
        return None
    where = _element_index(cur.data.shape, key)
    if where is None:
        if len(key) != 1 or not 1.0 <= key[0] <= 9.2e18 or key[0] != int(key[0]):
            return None
        grown = _ix.append_struct(cur) if key[0] == cur.data.size + 1 else None
        if grown is not None:
            cur = grown    # s(end+1).name = v: a blank element in spare capacity
        else:
            blank = StructArray.scalar({f: np.zeros((0, 0)) for f in cur.fields})
            cur = _ix.paren_set(cur, key, blank, inplace=True)
        where = _element_index(cur.data.shape, key)
        if where is None:
            return None
    data = cur.data
    element = data[where]
    # element: the array's slot, this local, the argument.
    if sys.getrefcount(element) > 3:
        element = dict(element)
        data[where] = element
    field_level = levels[i + 1]
    name = _key(fr, field_level, None)
    if i + 1 == len(levels) - 1:
        value = rhs
    else:
        inner = element.get(name)
        inner_owned = inner is not None and exclusive(inner, 2)
        value = _set_level(fr, inner, levels, i + 2, rhs, inner_owned)
    if name in element:
        element[name] = value
    else:
        _add_field(cur, name, value, element)
    return cur


def _add_field(s: StructArray, name: str, value: Any, element: dict) -> None:
    """Add field ``name`` to the owned struct array ``s``: ``element`` (the
    one being assigned, owned by the caller) gets ``value``, every other
    element ``[]`` (element dicts other values share are copied first)."""
    data = s.data
    for where in np.ndindex(*data.shape):
        other = data[where]
        if other is element:
            continue
        # other: the array's slot, this local, the argument.
        if sys.getrefcount(other) > 3:
            other = dict(other)
            data[where] = other
        other[name] = np.zeros((0, 0))
    element[name] = value
    # fields: the wrapper's slot and the argument, unless shared.
    if sys.getrefcount(s.fields) <= 2:
        s.fields.append(name)
    else:
        s.fields = s.fields + [name]


def _ix_is_empty_double(v: Any) -> bool:
    return type(v) is np.ndarray and v.shape == (0, 0) and v.dtype == np.float64


def is_delete_rhs(target: ast.Expr, value: ast.Expr) -> bool:
    """``x(idx) = []`` deletes: a paren target and a literal empty ``[]``."""
    if not (isinstance(target, ast.Index) and target.kind == "()"):
        return False
    return isinstance(value, ast.Matrix) and not any(row for row in value.rows)
