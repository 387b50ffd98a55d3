"""Direct setters for element writes of loops: ``x(k) = v``, ``c{k} = v``,
``c{k}.name = v`` and ``s(k).name = v`` with ``k`` a name or a number. Each writes in place
when the value is not shared and the element exists, and hands anything
else (growth, shared values, errors) to the general setter it wraps.

The fast part runs in a helper that returns whether it applied, so no local
of the wrapper holds the value when the general setter counts its holders
(an extra holder would make it copy: O(n^2) growth)."""

from __future__ import annotations

import sys
from typing import Any, Callable

import numpy as np

from matfuse.lang import ast
from matfuse.runtime import indexing as _ix
from matfuse.runtime.values import CellArray, StructArray
from matfuse.vm._ownership import exclusive, owns_buffer

Setter = Callable[[Any, Any], None]
_F64 = np.dtype(np.float64)


def plain_subscript(node: ast.Expr) -> bool:
    """``c{k}`` / ``c{3}``: one subscript that is a name or a number
    (reading it twice has no effect to repeat)."""
    if type(node) is not ast.Index or len(node.args) != 1:
        return False
    arg = node.args[0]
    return type(arg) is ast.Ident or (type(arg) is ast.Number and type(arg.value) is float
                                      and arg.int_class is None)


def _field_assign(name: str, subscript: ast.Expr, field: str, general: Setter,
                  set_field: Callable[[Any, Any, str, Any], bool]) -> Setter:
    """``name<k>.field = rhs`` through ``set_field`` (in place), else the
    ``general`` chain (reading the subscript again has no effect to repeat)."""
    constant = subscript.value if type(subscript) is ast.Number else None
    index_name = subscript.name if constant is None else ""

    def assign_field(fr: Any, rhs: Any) -> None:
        k = constant if constant is not None else fr.get(index_name)
        # (No local holds the value while the general chain counts holders.)
        if not set_field(fr.get(name), k, field, rhs):
            general(fr, rhs)
    return assign_field


def cell_field_assign(name: str, subscript: ast.Expr, field: str, general: Setter) -> Setter:
    """``c{k}.name = rhs``: in an unshared cell whose element k is a 1x1
    struct, that struct is updated where it lies (in place when nobody else
    holds it, as ``field_set`` decides); everything else, the errors
    included, takes the ``general`` chain."""
    return _field_assign(name, subscript, field, general, set_cell_field)


def set_cell_field(cur: Any, k: Any, field: str, rhs: Any) -> bool:
    """``cur{k}.field = rhs`` done in place (see ``cell_field_assign``);
    False when it does not apply."""
    # cur: the workspace dict and this parameter.
    if type(cur) is not CellArray or type(k) is not float or not exclusive(cur, 2):
        return False
    data = cur.data
    where = _ix.matrix_slot(data, k)
    if where is None:
        return False
    element = data[where]
    # element: the cell's slot and this local.
    if type(element) is not StructArray or element.data.size != 1:
        return False
    owned = exclusive(element, 2)
    data[where] = _ix.field_set(element, field, rhs, inplace=owned)
    return True


def element_assign(name: str, kind: str, subscript: ast.Expr, general: Setter) -> Setter:
    """``x(k) = v`` / ``c{k} = v`` with ``k`` a name or a number: a double
    scalar into an existing element of an unshared double matrix, or any
    value into an existing element of an unshared cell, written in place
    (what ``paren_set``/``brace_set`` do for them); everything else takes
    ``general`` (reading the subscript again has no effect to repeat)."""
    constant = subscript.value if type(subscript) is ast.Number else None
    index_name = subscript.name if constant is None else ""
    paren = kind == "()"

    def assign_element(fr: Any, rhs: Any) -> None:
        k = constant if constant is not None else fr.get(index_name)
        # (No local holds the value while the general path counts holders.)
        if not set_element(fr.get(name), k, rhs, paren):
            general(fr, rhs)
    return assign_element


def set_element(cur: Any, k: Any, rhs: Any, paren: bool) -> bool:
    """``cur(k) = rhs`` / ``cur{k} = rhs`` done in place (see
    ``element_assign``); False when it does not apply."""
    if type(k) is not float:
        return False
    if paren:
        if type(cur) is not np.ndarray or type(rhs) is not float or cur.dtype is not _F64:
            return False
    elif type(cur) is not CellArray:
        return False
    # cur: the workspace dict and this parameter (tested before a local
    # holds it or its elements).
    if not exclusive(cur, 2):
        return False
    data = cur if paren else cur.data
    where = _ix.matrix_slot(data, k)
    if where is None or not data.flags.writeable:
        return False
    data[where] = rhs
    return True


def struct_field_assign(name: str, subscript: ast.Expr, field: str, general: Setter) -> Setter:
    """``s(k).name = rhs``: in an unshared struct array whose element k exists
    and has the field, that element's field is set where it lies (the
    element's dict copied first when another value shares it); everything
    else (growth, a new field, shared arrays, errors) takes the ``general``
    chain."""
    return _field_assign(name, subscript, field, general, set_struct_field)


def set_struct_field(cur: Any, k: Any, field: str, rhs: Any) -> bool:
    """``cur(k).field = rhs`` done in place (see ``struct_field_assign``);
    False when it does not apply."""
    # cur: the workspace dict, this parameter and getrefcount's argument
    # (``exclusive(cur, 2)``, inline).
    if type(cur) is not StructArray or type(k) is not float or sys.getrefcount(cur) > 3:
        return False
    data = cur.data
    # data: the wrapper's slot, this local and getrefcount's argument.
    if sys.getrefcount(data) > 3 or (data.base is not None and not owns_buffer(data)):
        return False
    where = _ix.matrix_slot(data, k)
    if where is None:
        return False
    element = data[where]
    if field not in element:
        return False
    # element: the array's slot, this local and getrefcount's argument.
    if sys.getrefcount(element) > 3:
        if not data.flags.writeable:
            return False
        element = dict(element)
        data[where] = element
    element[field] = rhs
    return True
