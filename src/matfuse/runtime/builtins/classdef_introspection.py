"""Introspection of ``classdef`` objects and classes: ``properties``,
``methods``, ``ismethod``, ``isprop``, ``isobject``, ``isvalid``,
``superclasses``. A class may be named by an object or by its name."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.classdef_objects import ClassInfo, ClassObject
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import CellArray, char_array, to_str


def _class_of_arg(ctx: Any, value: Any, fn: str) -> ClassInfo | None:
    """The ClassInfo an argument names (an object or a class name), or None."""
    if type(value) is ClassObject:
        return value.cls
    if is_text(value):
        interp = ctx.interp
        target = interp.resolve(to_str(value), interp.frame.scope)
        return target if isinstance(target, ClassInfo) else None
    return None


def _name_column(names: list[str]) -> CellArray:
    return CellArray.from_list([char_array(n) for n in names], (len(names), 1))


def _listing(ctx: Any, title: str, names: list[str]) -> None:
    ctx.write(f"\n{title}\n\n" + "".join(f"    {n}\n" for n in names) + "\n")


@builtin("properties", category="classes", nargin=(1, 1), nargout=(0, 1), needs_ctx=True,
         wants_nargout=True)
def properties(ctx: Any, value: Any, nargout: int = 0) -> Any:
    """Public property names of an object or class (printed, or a cell column)."""
    cls = _class_of_arg(ctx, value, "properties")
    if cls is None:
        names: list[str] = []
        if nargout == 0:
            label = to_str(value) if is_text(value) else type(value).__name__
            ctx.write(f"No properties for class {label}.\n")
            return None
        return CellArray(np.empty((0, 1), dtype=object))
    names = cls.visible_properties()
    if nargout == 0:
        if names:
            _listing(ctx, f"Properties for class {cls.name}:", names)
        else:
            ctx.write(f"No properties for class {cls.name}.\n")
        return None
    return _name_column(names)


@builtin("methods", category="classes", nargin=(1, 2), nargout=(0, 1), needs_ctx=True,
         wants_nargout=True)
def methods(ctx: Any, value: Any, *options: Any, nargout: int = 0) -> Any:
    """Public method names of an object or class, the constructor included."""
    cls = _class_of_arg(ctx, value, "methods")
    if cls is None:
        raise MatlabError("MATLAB:methods:InvalidInput",
                          "Input must be an object or the name of a class.")
    names = sorted(set(cls.method_names()) | {cls.name})
    if nargout == 0:
        _listing(ctx, f"Methods for class {cls.name}:", names)
        return None
    return _name_column(names)


@builtin("ismethod", category="classes", nargin=(2, 2))
def ismethod(obj: Any, name: Any) -> bool:
    """True when ``name`` is a method of the object's class."""
    if type(obj) is not ClassObject or not is_text(name):
        return False
    return to_str(name) in obj.cls.method_names()


@builtin("isprop", category="classes", nargin=(2, 2))
def isprop(obj: Any, name: Any) -> bool:
    """True when ``name`` is a property of the object's class."""
    if type(obj) is not ClassObject or not is_text(name):
        return False
    return obj.cls.find_property(to_str(name)) is not None


@builtin("isobject", category="classes", nargin=(1, 1))
def isobject(value: Any) -> bool:
    """True for an object (or object array) of a ``classdef`` class and for
    MATLAB's built-in handle objects (``containers.Map``, ``inputParser``)."""
    return isinstance(getattr(value, "cls", None), ClassInfo) or \
        getattr(value, "is_handle_object", False)


@builtin("isvalid", category="classes", nargin=(1, 1))
def isvalid(value: Any) -> bool:
    """False for a deleted handle object, true for other handle objects."""
    if type(value) is not ClassObject or not value.cls.is_handle:
        raise MatlabError("MATLAB:UndefinedFunction",
                          "Undefined function 'isvalid' for input arguments of this type.")
    return not value.deleted


@builtin("superclasses", category="classes", nargin=(1, 1), nargout=(0, 1), needs_ctx=True,
         wants_nargout=True)
def superclasses(ctx: Any, value: Any, nargout: int = 0) -> Any:
    """Names of the superclasses of an object or class."""
    cls = _class_of_arg(ctx, value, "superclasses")
    names = cls.superclass_names() if cls is not None else []
    if nargout == 0:
        label = cls.name if cls is not None else ""
        _listing(ctx, f"Superclasses for class {label}:", names)
        return None
    return _name_column(names)


@builtin("inputname", category="classes", nargin=(1, 2), needs_ctx=True)
def inputname(ctx: Any, position: Any, throw: Any = None) -> Any:
    """The caller's variable name of the argument at ``position`` ('' when it
    was not a plain variable or is not known)."""
    frame = ctx.interp.frame
    names = getattr(frame, "input_names", None)
    k = int(float(np.asarray(position).reshape(-1)[0]))
    if k < 1 or k > max(frame.nargin, 0):
        raise MatlabError("MATLAB:inputname:argNumberExceedsNargin",
                          "Argument number exceeds the number of inputs.")
    if names is None or k > len(names) or not names[k - 1]:
        return np.zeros((0, 0), dtype=char_array("a").dtype)
    return char_array(names[k - 1])


@builtin("copy", category="classes", nargin=(1, 1))
def copy(value: Any) -> Any:
    """Shallow copy of a handle object of a ``matlab.mixin.Copyable`` class
    (a new handle with the same property values)."""
    cls = getattr(value, "cls", None)
    if not isinstance(cls, ClassInfo) or not cls.is_copyable:
        from matfuse.runtime.values import class_of

        raise MatlabError("MATLAB:UndefinedFunction",
                          f"Undefined function 'copy' for input arguments of type "
                          f"'{class_of(value)}'.")
    if type(value) is ClassObject:
        return value.copy()
    from matfuse.runtime.classdef_arrays import ObjectArray

    flat = value.data.reshape(-1, order="F")
    out = np.empty(flat.size, dtype=object)
    for i, element in enumerate(flat):
        out[i] = element.copy()
    return ObjectArray(cls, out.reshape(value.data.shape, order="F"))


@builtin("enumeration", category="classes", nargin=(1, 1), nargout=(0, 2), needs_ctx=True,
         wants_nargout=True)
def enumeration(ctx: Any, value: Any, nargout: int = 0) -> Any:
    """Members of an enumeration class (printed, or a column of members and
    a cell column of their names)."""
    from matfuse.runtime.classdef_arrays import wrap_objects
    from matfuse.vm.classes import enumeration_member

    cls = _class_of_arg(ctx, value, "enumeration")
    names = [name for name, _ in cls.enumeration] if cls is not None else []
    if nargout == 0:
        label = cls.name if cls is not None else ""
        if names:
            _listing(ctx, f"Enumeration members for class '{label}':", names)
        else:
            ctx.write(f"No enumeration members for class '{label}'.\n")
        return None
    data = np.empty((len(names), 1), dtype=object)
    for i, name in enumerate(names):
        data[i, 0] = enumeration_member(cls, name)
    members = wrap_objects(cls, data) if names else np.zeros((0, 1))
    if nargout >= 2:
        return members, _name_column(names)
    return members
