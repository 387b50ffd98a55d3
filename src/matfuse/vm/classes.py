"""``classdef`` classes in the VM: linking a compiled class, constructing
objects, calling methods and reading members.

* ``link_class``: binds the interpreter to a ``ClassInfo`` compiled by
  ``class_compiler.compile_class`` and loads the superclasses.
* ``construct``: ``ClassName(args)``: an object with the default property
  values, then the constructor chain (the superclass constructor runs first:
  implicitly with no arguments, or where the constructor calls
  ``obj@Super(args)``).
* dispatch (``classdef_objects.method_for``): a function call with an object argument
  runs that object's method of the same name (``area(p)``, ``disp(p)``).
* ``member_values`` / ``static_member``: ``obj.prop``, ``obj.method(args)``,
  ``ClassName.staticMethod(args)``, ``ClassName.Constant``.
"""

from __future__ import annotations

from typing import Any

from matfuse.errors import MatlabError
from matfuse.lang import ast
from matfuse.runtime import indexing as _ix
from matfuse.runtime.classdef_objects import (
    ClassInfo, ClassObject, PropertyInfo, check_method_access, no_member,
)
from matfuse.runtime.classdef_arrays import ObjectArray
from matfuse.vm import _calls

# Built-in superclasses that make a class a handle class.
HANDLE_BASES = frozenset({"handle", "matlab.mixin.Copyable", "matlab.mixin.SetGet",
                          "dynamicprops", "matlab.mixin.SetGetExactNames"})
# Built-in mixins with no behaviour here.
IGNORED_BASES = frozenset({"matlab.mixin.CustomDisplay", "matlab.mixin.Heterogeneous"})


def link_class(info: ClassInfo, interp: Any, scope: Any) -> None:
    """Bind the interpreter and load the superclasses (their properties and
    methods become this class's)."""
    info.interp = interp
    info.make_default = lambda: construct(interp, info, [], 1)[0]
    supers: list[ClassInfo] = []
    for name in getattr(info, "super_names", []):
        if name in HANDLE_BASES:
            continue
        target = interp.resolve(name, scope)
        if not isinstance(target, ClassInfo):
            raise MatlabError("MATLAB:class:UndefinedSuperclass",
                              f"The specified superclass '{name}' contains a parse error, "
                              f"cannot be found on MATLAB's search path, or is shadowed by "
                              f"another file with the same name.")
        supers.append(target)
    _load_folder_methods(info, interp)
    info.supers = supers
    if any(s.is_handle for s in supers):
        info.is_handle = True
    if any(s.is_copyable for s in supers):
        info.is_copyable = True
    inherited: dict[str, PropertyInfo] = {}
    for sup in supers:
        for name, prop in sup.properties.items():
            if name not in info.properties:
                inherited.setdefault(name, prop)
    info.properties.update(inherited)


def _load_folder_methods(info: ClassInfo, interp: Any) -> None:
    """A class in an ``@Name`` folder: each other ``.m`` file there is a
    method (its primary function), unless the classdef defines it."""
    import os

    if info.file is None:
        return
    folder = os.path.dirname(os.path.abspath(info.file))
    if os.path.basename(folder) != "@" + info.name:
        return
    for entry in sorted(os.listdir(folder)):
        name = entry[:-2]
        if not entry.endswith(".m") or name == info.name or name in info.methods:
            continue
        scope = interp.functions.load_file(os.path.join(folder, entry))
        method = scope.primary
        if method is None:
            continue
        method.defining_class = info
        info.methods[name] = method
        if info.signatures.get(name):
            info.static.add(name)


# ------------------------------------------------------------- construction
def construct(interp: Any, cls: ClassInfo, args: list, nargout: int) -> list:
    """``ClassName(args)``: a new object after the constructor chain."""
    if nargout > 1:
        raise _calls.too_many_outputs(cls.name)
    if cls.is_abstract:
        raise MatlabError("MATLAB:class:abstract",
                          f"Abstract classes cannot be instantiated. Class '{cls.name}' "
                          f"defines abstract methods and/or properties.")
    obj = ClassObject(cls, dict(cls.default_values()))
    return [run_constructor(interp, cls, obj, list(args))]


def run_constructor(interp: Any, cls: ClassInfo, obj: ClassObject, args: list) -> ClassObject:
    """Run ``cls``'s constructor (and its superclasses') on ``obj``."""
    ctor = cls.constructor
    if ctor is None:
        if args and not cls.supers:
            raise MatlabError("MATLAB:TooManyInputs", "Too many input arguments.")
        for sup in cls.supers:
            obj = run_constructor(interp, sup, obj, args if len(cls.supers) == 1 else [])
        return obj
    for sup in cls.supers:
        if sup.name not in cls.explicit_super_calls:
            obj = run_constructor(interp, sup, obj, [])
    out = interp.call_function(ctor, args, 1, preset={ctor.outputs[0]: obj})
    result = out[0] if out else obj
    if not isinstance(result, ClassObject):
        raise MatlabError("MATLAB:class:InvalidConstructorOutput",
                          f"The constructor for class '{cls.name}' must return an object "
                          f"of that class.")
    return result


def super_call(fr: Any, node: ast.SuperRef, args: list, nargout: int) -> list:
    """``obj@Super(args)`` (superclass constructor) or ``method@Super(obj, ...)``."""
    interp = fr.interp
    sup = interp.resolve(node.superclass, fr.scope)
    if not isinstance(sup, ClassInfo):
        raise MatlabError("MATLAB:class:UndefinedSuperclass",
                          f"'{node.superclass}' is not a superclass.")
    function = fr.function
    cls = getattr(function, "defining_class", None)
    if cls is not None and cls.constructor is function and function.outputs[:1] == [node.name]:
        obj = fr.get(node.name)
        return [run_constructor(interp, sup, obj, args)]
    method = sup.find_method(node.name)
    if method is None:
        raise no_member(node.name, sup.name)
    return interp.call_function(method, args, nargout)


# ----------------------------------------------------------------- dispatch
def class_named(interp: Any, name: str, scope: Any) -> ClassInfo | None:
    try:
        target = interp.resolve(name, scope)
    except MatlabError:
        return None
    return target if isinstance(target, ClassInfo) else None


def static_member(interp: Any, cls: ClassInfo, name: str, args: list | None,
                  nargout: int) -> list:
    """``ClassName.name`` / ``ClassName.name(args)``: a static method, a
    constant property or an enumeration member."""
    method = cls.find_method(name)
    if method is not None:
        return interp.call_function(method, args or [], nargout)
    prop = cls.find_property(name)
    if prop is not None and prop.constant:
        value = cls.constant(name)
        return [value if not args else _ix.paren_get(value, args)]
    for member, ctor_args in cls.enumeration:
        if member == name:
            return [enumeration_member(cls, member)]
    if name == "empty":
        return [_empty_array(cls, args or [])]
    raise no_member(name, cls.name)


def _empty_array(cls: ClassInfo, args: list) -> ObjectArray:
    """``ClassName.empty`` / ``ClassName.empty(0, n)``: an empty object array."""
    import numpy as np

    from matfuse.runtime.values import to_array

    dims = [int(x) for a in args for x in to_array(a).reshape(-1)] or [0, 0]
    if len(dims) == 1:
        dims = [dims[0], dims[0]]
    if 0 not in dims:
        raise MatlabError("MATLAB:class:emptyMustBeZero",
                          "At least one dimension must be zero.")
    return ObjectArray(cls, np.empty(tuple(dims), dtype=object))


def enumeration_member(cls: ClassInfo, member: str) -> ClassObject:
    """One enumeration member, constructed once per class and member with
    the arguments its declaration lists (``Red (1, 0, 0)``)."""
    cache = cls.enum_members
    obj = cache.get(member)
    if obj is None:
        arg_fns = next(args for name, args in cls.enumeration if name == member)
        obj = construct(cls.interp, cls, [fn() for fn in arg_fns], 1)[0]
        obj.enum_name = member
        cache[member] = obj
    return obj


def _ix_one(values: list) -> Any:
    if len(values) != 1:
        raise MatlabError("MATLAB:index:expected_one_output_from_expression",
                          f"Expected one output from a curly brace or dot indexing "
                          f"expression, but there were {len(values)} results.")
    return values[0]


def member_values(interp: Any, obj: Any, name: str, args: list | None, kind: str,
                  nargout: int) -> list:
    """``obj.name`` (``args`` None) or ``obj.name(args)`` / ``obj.name{args}``."""
    if type(obj) is ClassObject or type(obj) is ObjectArray:
        cls = obj.cls
        if cls.find_property(name) is None:
            method = cls.find_method(name)
            if method is None:
                raise no_member(name, cls.name)
            check_method_access(cls, name, method)
            if kind == "{}":
                raise MatlabError("MATLAB:cellRefFromNonCell",
                                  "Brace indexing is not supported for variables of this type.")
            if cls.is_static(name):
                return interp.call_function(method, list(args or []), nargout)
            return interp.call_function(method, [obj] + list(args or []), nargout)
        if type(obj) is ObjectArray:
            values = obj.property_values(name)
            if args is None:
                return values
            value = _ix_one(values)
        else:
            value = obj.get_property(name)
    elif args is not None and kind == "()" and name in getattr(obj, "dot_methods", ()):
        # obj.method(args) on a built-in handle object (containers.Map):
        # the function of that name with the object first, as MATLAB does.
        return interp.call(name, [obj] + list(args), nargout)
    else:
        values = _ix.field_get(obj, name)
        if args is None:
            return values
        if len(values) != 1:
            raise MatlabError("MATLAB:index:expected_one_output_from_expression",
                              f"Expected one output from a curly brace or dot indexing "
                              f"expression, but there were {len(values)} results.")
        value = values[0]
    if args is None:
        return [value]
    if kind == "()":
        if type(value).__name__ == "FunctionHandle":
            return _calls.call_handle(interp, value, args, nargout)
        return [_ix.paren_get(value, args)]
    return _ix.brace_get(value, args)
