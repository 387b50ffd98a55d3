"""Lowering of dotted member expressions: ``base.name`` and
``base.name(args)`` / ``base.name{args}``.

``base`` may be a struct (fields, cs-lists for struct arrays), an object or
object array (properties, methods: ``obj.method(args)`` calls
``method(obj, args)``) or, when it is a name that is not a variable, a class
(``ClassName.staticMethod(args)``, ``ClassName.Constant``,
``ClassName.EnumMember``). ``name@Super(...)`` is lowered here too.
"""

from __future__ import annotations

from typing import Any, Callable

from matfuse.lang import ast
from matfuse.runtime import indexing as _ix
from matfuse.runtime.classdef_arrays import ObjectArray
from matfuse.runtime.classdef_objects import ClassObject
from matfuse.runtime.values import CellArray, StructArray
from matfuse.vm import _calls

MultiClosure = Callable[[Any, int], list]


def _classes() -> Any:
    """``matfuse.vm.classes`` (imported on first use: programs without
    classes never load it)."""
    from matfuse.vm import classes

    return classes


def _owner_name(exprs: Any, node: ast.Expr) -> str | None:
    """The name in ``Name.member`` that may be a class (not a global etc.)."""
    if type(node) is ast.Ident and exprs.ctx.special_reader(node.name) is None:
        return node.name
    return None


def member_list(exprs: Any, node: ast.Field) -> MultiClosure:
    """``base.name``: a struct field (a cs-list for struct arrays), an
    object's property or no-argument method, or ``ClassName.member``."""
    base = exprs.value(node.base)
    owner = _owner_name(exprs, node.base)
    name = node.name
    scope = exprs.ctx.scope
    field_get = _ix.field_get

    def member(fr: Any, nargout: int) -> list:
        if owner is not None and owner not in fr:
            classes = _classes()
            cls = classes.class_named(fr.interp, owner, scope)
            if cls is not None:
                return classes.static_member(fr.interp, cls, name, None, nargout)
        v = base(fr)
        if type(v) is ClassObject or type(v) is ObjectArray:
            return _classes().member_values(fr.interp, v, name, None, "()", nargout)
        return field_get(v, name)
    element_read = _element_field_reader(exprs, node.base, name)
    if element_read is None:
        return member

    def element_member(fr: Any, nargout: int) -> list:
        value = element_read(fr)
        return [value] if value is not _calls.MISSING else member(fr, nargout)
    return element_member


def element_field_value(exprs: Any, node: ast.Field, general: Callable[[Any], Any]
                        ) -> Callable[[Any], Any] | None:
    """One-value ``s(k).name`` / ``c{k}.name`` (see ``_element_field_reader``):
    the field read straight from the element, ``general`` (the one-value
    reading of ``member_list``) for anything else; None when the form does
    not apply."""
    element_read = _element_field_reader(exprs, node.base, node.name)
    if element_read is None:
        return None
    missing = _calls.MISSING

    def element_field(fr: Any) -> Any:
        value = element_read(fr)
        return value if value is not missing else general(fr)
    return element_field


def _element_field_reader(exprs: Any, base: ast.Expr, name: str
                          ) -> Callable[[Any], Any] | None:
    """For ``s(k).name`` / ``c{k}.name`` with ``s``/``c`` and ``k`` plain
    names: a reader giving the field of element k of a struct array ``s``
    (of the scalar struct in cell k of ``c``) straight from its dict, or
    MISSING for anything else (the general path then runs; reading two
    variables has no effect to repeat)."""
    if type(base) is not ast.Index or len(base.args) != 1:
        return None
    if base.kind == "{}":
        return _cell_element_field_reader(exprs, base, name)
    if base.kind != "()":
        return None
    names = _plain_names(exprs, base)
    if names is None:
        return None
    array_name, index_name = names
    missing = _calls.MISSING

    def read_element_field(fr: Any) -> Any:
        v = fr.get(array_name)
        k = fr.get(index_name)
        if type(v) is not StructArray or type(k) is not float:
            return missing
        data = v.data
        where = _ix.matrix_slot(data, k)
        if where is None:
            return missing
        return data[where].get(name, missing)
    return read_element_field


def _cell_element_field_reader(exprs: Any, base: ast.Index, name: str
                               ) -> Callable[[Any], Any] | None:
    """``c{k}.name`` (see ``_element_field_reader``): the field of the 1x1
    struct in cell k of ``c``."""
    names = _plain_names(exprs, base)
    if names is None:
        return None
    cell_name, index_name = names
    missing = _calls.MISSING

    def read_cell_element_field(fr: Any) -> Any:
        c = fr.get(cell_name)
        k = fr.get(index_name)
        if type(c) is not CellArray or type(k) is not float:
            return missing
        data = c.data
        where = _ix.matrix_slot(data, k)
        if where is None:
            return missing
        element = data[where]
        if type(element) is not StructArray or element.data.size != 1:
            return missing
        return element.data.item(0).get(name, missing)
    return read_cell_element_field


def member_index(exprs: Any, node: ast.Field, kind: str, cell: list | None,
                 build: Callable[[Any], list]) -> MultiClosure:
    """``base.name(args)`` / ``base.name{args}``: index a field or property,
    call an object's method, or ``ClassName.staticMethod(args)``."""
    base = exprs.value(node.base)
    owner = _owner_name(exprs, node.base)
    name = node.name
    scope = exprs.ctx.scope
    field_get = _ix.field_get

    def member_indexed(fr: Any, nargout: int) -> list:
        if owner is not None and owner not in fr:
            classes = _classes()
            cls = classes.class_named(fr.interp, owner, scope)
            if cls is not None:
                return classes.static_member(fr.interp, cls, name, build(fr), nargout)
        v = base(fr)
        if type(v) is ClassObject or type(v) is ObjectArray:
            classes = _classes()
            if cell is None:
                return classes.member_values(fr.interp, v, name, build(fr), kind, nargout)
            value = _calls.one_value(classes.member_values(fr.interp, v, name, None, kind, 1))
        elif cell is None and name in getattr(v, "dot_methods", ()):
            return _classes().member_values(fr.interp, v, name, build(fr), kind, nargout)
        else:
            value = _calls.one_value(field_get(v, name))
        return _calls.index_into(fr, value, kind, cell, build, nargout)
    return member_indexed


def super_call(fr: Any, node: ast.SuperRef, args: list, nargout: int) -> list:
    """``obj@Super(args)`` / ``method@Super(obj, ...)`` (see ``classes.super_call``)."""
    return _classes().super_call(fr, node, args, nargout)


def _plain_names(exprs: Any, base: ast.Index) -> tuple[str, str] | None:
    """(variable, index variable) of ``v(k)`` / ``v{k}`` when both are plain
    workspace names (not ``end``, ``nargin``... read specially), else None."""
    root, arg = base.base, base.args[0]
    if type(root) is not ast.Ident or type(arg) is not ast.Ident \
            or exprs.ctx.special_reader(root.name) is not None \
            or exprs.ctx.special_reader(arg.name) is not None:
        return None
    return root.name, arg.name
