"""A direct setter for nested element writes: ``s(k).c{j}(r) = v``,
``s.a.b(k) = v``, ``c{i}{j} = v``.

Every level's subscript is one name or number (reading it twice has no effect
to repeat) or a static field name, and the last level writes one existing
element: a double scalar into a double matrix, or any value into a cell.
When the variable and every value on the way down are unshared (copy on
write decided by counting holders, ``exclusive``) and every element and
field exists, the element is written where it lies. Anything else (growth,
a new field, a shared value, another class, errors) takes the general chain
it wraps, from the start: nothing is changed before the walk knows it can
finish, except that an element's field dict shared with another value is
replaced by its own copy (the same value).
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import numpy as np

from matfuse.lang import ast
from matfuse.runtime import indexing as _ix
from matfuse.runtime.values import CellArray, StructArray
from matfuse.vm._calls import MISSING
from matfuse.vm._element_setters import plain_subscript
from matfuse.vm._ownership import exclusive

Setter = Callable[[Any, Any], None]
_F64 = np.dtype(np.float64)

# Step kinds of the walk.
_ELEMENT_FIELD = 0    # s(k).name: field of element k of a struct array
_FIELD = 1            # s.name: field of a 1x1 struct
_CELL = 2             # c{k}: the content of cell k


def nested_steps(levels: list[ast.Expr]) -> list[tuple[int, Any, str, str]] | None:
    """The walk for ``levels`` (the target chain below the variable) as
    (kind, constant subscript or None, subscript name, field name) steps,
    the last one the element write (kind ``()`` or ``{}`` as a string step
    ``_LAST``); None when the chain is not of the form above."""
    if len(levels) < 2:
        return None
    last = levels[-1]
    if type(last) is not ast.Index or not plain_subscript(last):
        return None
    steps: list[tuple[int, Any, str, str]] = []
    i = 0
    while i < len(levels) - 1:
        node = levels[i]
        if type(node) is ast.Field:
            steps.append((_FIELD, None, "", node.name))
            i += 1
            continue
        if type(node) is not ast.Index or not plain_subscript(node):
            return None
        constant, name = _subscript(node)
        if node.kind == "{}":
            steps.append((_CELL, constant, name, ""))
            i += 1
            continue
        following = levels[i + 1]
        if node.kind != "()" or type(following) is not ast.Field or i + 1 == len(levels) - 1:
            return None
        steps.append((_ELEMENT_FIELD, constant, name, following.name))
        i += 2
    return steps


def _subscript(node: ast.Index) -> tuple[Any, str]:
    arg = node.args[0]
    return (arg.value, "") if type(arg) is ast.Number else (None, arg.name)


def nested_assign(root: str, levels: list[ast.Expr], general: Setter) -> Setter | None:
    """The setter for ``root`` + ``levels`` (see the module docstring), or
    None when the chain is not of that form."""
    steps = nested_steps(levels)
    if steps is None:
        return None
    last = levels[-1]
    paren = last.kind == "()"
    constant, name = _subscript(last)
    steps_tuple = tuple(steps)

    def assign_nested(fr: Any, rhs: Any) -> None:
        # (No local holds the value while the general chain counts holders.)
        if not set_nested(fr, fr.get(root), steps_tuple, constant, name, paren, rhs):
            general(fr, rhs)
    return assign_nested


def set_nested(fr: Any, cur: Any, steps: tuple, last_constant: Any, last_name: str,
               paren: bool, rhs: Any) -> bool:
    """The write done in place (see ``nested_assign``); False when it does not apply."""
    # cur: the workspace dict and this parameter.
    if cur is None or not exclusive(cur, 2):
        return False
    get = fr.get
    for kind, constant, name, field in steps:
        if kind == _FIELD:
            if type(cur) is not StructArray or cur.data.size != 1:
                return False
            element = _own_element(cur.data, (0,) * cur.data.ndim)
        else:
            k = constant if constant is not None else get(name)
            if type(k) is not float:
                return False
            if kind == _CELL:
                if type(cur) is not CellArray:
                    return False
                where = _ix.matrix_slot(cur.data, k)
                if where is None:
                    return False
                inner = cur.data[where]
                # inner: the cell's slot and this local.
                if not exclusive(inner, 2):
                    return False
                cur = inner
                continue
            if type(cur) is not StructArray:
                return False
            where = _ix.matrix_slot(cur.data, k)
            if where is None:
                return False
            element = _own_element(cur.data, where)
        if element is None:
            return False
        inner = element.get(field, MISSING)
        # inner: the element dict's slot and this local.
        if inner is MISSING or not exclusive(inner, 2):
            return False
        cur = inner
    k = last_constant if last_constant is not None else get(last_name)
    if type(k) is not float:
        return False
    if paren:
        if type(cur) is not np.ndarray or type(rhs) is not float or cur.dtype is not _F64:
            return False
        data = cur
    elif type(cur) is CellArray:
        data = cur.data
    else:
        return False
    where = _ix.matrix_slot(data, k)
    if where is None or not data.flags.writeable:
        return False
    data[where] = rhs
    return True


def _own_element(data: np.ndarray, where: tuple) -> dict | None:
    """The field dict at ``where`` of an owned struct array's data, made
    its own (copied into the slot) when another value shares it; None when
    the data cannot be written."""
    element = data[where]
    # element: the array's slot, this local and getrefcount's argument.
    if sys.getrefcount(element) > 3:
        if not data.flags.writeable:
            return None
        element = dict(element)
        data[where] = element
    return element
