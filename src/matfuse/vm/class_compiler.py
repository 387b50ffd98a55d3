"""Compiling a ``classdef`` file: ``compile_class`` turns the parsed class
into a ``ClassInfo``: methods compiled like functions, property defaults
and validators compiled as expressions (``classes.link_class`` then binds
the interpreter and loads the superclasses)."""

from __future__ import annotations

from typing import Any, Callable

from matfuse.lang import ast
from matfuse.runtime.classdef_objects import ClassInfo, PropertyInfo
from matfuse.runtime.classdef_validation import property_validator
from matfuse.vm._argument_check import validator_call
from matfuse.vm._expr import ExprCompiler
from matfuse.vm.classes import HANDLE_BASES, IGNORED_BASES
from matfuse.vm.compiler import compile_function
from matfuse.vm.function_context import FunctionContext
from matfuse.vm.workspace import Frame


def _attr(attributes: dict[str, ast.Expr | None], name: str, default: Any = False) -> Any:
    """An attribute's value: True for a bare name, the identifier or text of
    ``Name = value``, a bool for ``true``/``false``."""
    if name not in attributes:
        return default
    value = attributes[name]
    if value is None:
        return True
    if isinstance(value, ast.Ident):
        if value.name in ("true", "false"):
            return value.name == "true"
        return value.name
    if isinstance(value, ast.String):
        return value.value
    if isinstance(value, ast.Number):
        return bool(value.value)
    return default


def _access(attributes: dict[str, ast.Expr | None], which: str) -> str:
    both = _attr(attributes, "Access", "public")
    level = _attr(attributes, which, both)
    return level if isinstance(level, str) else "public"


def _constant_closure(node: ast.Expr, info: ClassInfo, scope: Any) -> Callable[[], Any]:
    """Evaluates a default-value expression in a fresh workspace of the class file."""
    closure = ExprCompiler(FunctionContext(scope, set(), None)).value(node)

    def evaluate() -> Any:
        fr = Frame(info.interp, info.name, info.file, scope)
        return closure(fr)
    return evaluate


def compile_class(program: ast.Program, scope: Any, file: str | None) -> ClassInfo:
    """The ClassInfo of a parsed classdef file (superclasses not yet loaded)."""
    node = program.classdef
    info = ClassInfo(node.name, file)
    info.super_names = [s for s in node.superclasses if s not in IGNORED_BASES]
    info.is_handle = any(s in HANDLE_BASES for s in node.superclasses)
    info.is_copyable = "matlab.mixin.Copyable" in node.superclasses
    info.is_abstract = bool(_attr(node.attributes, "Abstract")) or any(
        _attr(b.attributes, "Abstract") for b in node.methods)
    for prop in node.properties:
        attrs = prop.attributes
        pinfo = PropertyInfo(
            prop.name, node.name,
            dependent=bool(_attr(attrs, "Dependent")), constant=bool(_attr(attrs, "Constant")),
            hidden=bool(_attr(attrs, "Hidden")),
            get_access=_access(attrs, "GetAccess"), set_access=_access(attrs, "SetAccess"))
        if prop.default is not None:
            pinfo.default = _constant_closure(prop.default, info, scope)
        checks = [validator_call(v, prop.name, info, scope) for v in prop.validators]
        pinfo.validate = property_validator(prop, info, checks)
        if pinfo.default is None and pinfo.validate is not None:
            pinfo.default = _validated_default(pinfo)
        info.properties[prop.name] = pinfo
    for block in node.methods:
        static = bool(_attr(block.attributes, "Static"))
        access = _access(block.attributes, "Access")
        private = access in ("private", "protected")
        for fn in block.functions:
            cf = compile_function(fn, scope, file)
            cf.defining_class = info
            if fn.name.startswith("get."):
                info.getters[fn.name[4:]] = cf
            elif fn.name.startswith("set."):
                info.setters[fn.name[4:]] = cf
            elif fn.name == node.name:
                info.constructor = cf
                info.explicit_super_calls = _super_calls(fn, cf.outputs[:1])
            else:
                info.methods[fn.name] = cf
                if static:
                    info.static.add(fn.name)
                if private:
                    info.private_methods.add(fn.name)
                    info.method_access[fn.name] = access
    info.events = list(node.events)
    info.signatures = {name: bool(_attr(b.attributes, "Static"))
                       for b in node.methods for name in b.signatures}
    info.enumeration = [(name, [_constant_closure(a, info, scope) for a in args])
                        for name, args in node.enumeration]
    return info


def _validated_default(prop: PropertyInfo) -> Callable[[], Any]:
    """A property with a class constraint and no default starts as that
    class's default value (``double`` -> 0 when the size is fixed, else [])."""
    validate = prop.validate

    def default() -> Any:
        return getattr(validate, "initial_value", _ix_empty)()
    return default


def _ix_empty() -> Any:
    import numpy as np

    return np.zeros((0, 0))


def _super_calls(fn: ast.Function, outputs: list[str]) -> set[str]:
    """Superclass names whose constructor the constructor calls explicitly."""
    found: set[str] = set()

    def visit(node: Any) -> None:
        if isinstance(node, ast.SuperRef):
            if node.name in outputs:
                found.add(node.superclass)
            return
        if isinstance(node, list):
            for item in node:
                visit(item)
        elif isinstance(node, tuple):
            for item in node:
                visit(item)
        elif isinstance(node, ast.Node):
            for slot in type(node).__slots__:
                visit(getattr(node, slot, None))

    visit(fn.body)
    return found
