"""Objects of user-defined (``classdef``) classes.

A ``ClassInfo`` describes one class as compiled from its file: properties
(with defaults, attributes and validation), methods, superclasses and
whether it is a handle class. A ``ClassObject`` is one scalar instance: its
class and a dict of property values.

Value vs handle semantics: a value object is never changed in place; setting
a property returns a modified copy (the variable then holds the copy), so
``b = a; b.X = 1`` leaves ``a`` alone. A handle object is changed in place and
every variable holding it sees the change.

Property access goes through ``get.``/``set.`` methods when the class defines
them (not while that accessor itself runs, as in MATLAB) and through the
property's validation on every set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from matfuse.errors import MatlabError
from matfuse.runtime.registry import load_overloads
from matfuse.runtime.values import MObject

ACCESS_LEVELS = ("public", "protected", "private", "immutable")


@dataclass(eq=False)
class PropertyInfo:
    """One property as declared (``defining`` is the class that declares it)."""

    name: str
    defining: str
    default: Callable[[], Any] | None = None
    dependent: bool = False
    constant: bool = False
    hidden: bool = False
    get_access: str = "public"
    set_access: str = "public"
    # validate(value) -> value converted to the declared class, or raises.
    validate: Callable[[Any], Any] | None = None


@dataclass(eq=False)
class ClassInfo:
    """A compiled ``classdef`` class."""

    name: str
    file: str | None
    super_names: list[str] = field(default_factory=list)
    supers: list["ClassInfo"] = field(default_factory=list)
    is_handle: bool = False
    # Declared (Abstract), or has an abstract methods/properties block.
    is_abstract: bool = False
    # Derives from matlab.mixin.Copyable (``copy`` makes a new handle).
    is_copyable: bool = False
    properties: dict[str, PropertyInfo] = field(default_factory=dict)
    # Own methods by name: CompiledFunction; ``static`` names the static ones.
    methods: dict[str, Any] = field(default_factory=dict)
    static: set[str] = field(default_factory=set)
    # Methods declared by signature only: name -> static?
    signatures: dict[str, bool] = field(default_factory=dict)
    events: list[str] = field(default_factory=list)
    private_methods: set[str] = field(default_factory=set)
    # 'private' or 'protected' for the methods of such blocks
    method_access: dict[str, str] = field(default_factory=dict)
    getters: dict[str, Any] = field(default_factory=dict)
    setters: dict[str, Any] = field(default_factory=dict)
    constructor: Any = None
    # True when the constructor body calls ``obj@Super(...)`` itself.
    explicit_super_calls: set[str] = field(default_factory=set)
    enumeration: list[tuple[str, list[Any]]] = field(default_factory=list)
    # The interpreter that loaded the class (calls its methods).
    interp: Any = None
    _defaults: dict[str, Any] | None = None
    _constants: dict[str, Any] = field(default_factory=dict)
    enum_members: dict[str, Any] = field(default_factory=dict)
    # () -> a default-constructed object (bound by the VM when linking).
    make_default: Callable[[], Any] = lambda: None

    def find_method(self, name: str) -> Any:
        """The method ``name`` of this class or the nearest superclass."""
        method = self.methods.get(name)
        if method is not None:
            return method
        for sup in self.supers:
            method = sup.find_method(name)
            if method is not None:
                return method
        return None

    def default_object(self) -> "ClassObject":
        """The object made by the constructor with no arguments (fills the
        gaps when an object array grows)."""
        return self.make_default()

    def is_static(self, name: str) -> bool:
        """Whether the method ``name`` (here or inherited) is static."""
        if name in self.methods:
            return name in self.static
        return any(sup.is_static(name) for sup in self.supers)

    def find_property(self, name: str) -> PropertyInfo | None:
        return self.properties.get(name)

    def find_getter(self, name: str) -> Any:
        getter = self.getters.get(name)
        if getter is None:
            for sup in self.supers:
                getter = sup.find_getter(name)
                if getter is not None:
                    break
        return getter

    def find_setter(self, name: str) -> Any:
        setter = self.setters.get(name)
        if setter is None:
            for sup in self.supers:
                setter = sup.find_setter(name)
                if setter is not None:
                    break
        return setter

    def all_events(self) -> list[str]:
        """Events of the class and its superclasses."""
        names = list(self.events)
        for sup in self.supers:
            names.extend(n for n in sup.all_events() if n not in names)
        return names

    def isa(self, name: str) -> bool:
        """Whether this class is ``name`` or derives from it."""
        if self.name == name or (name == "handle" and self.is_handle):
            return True
        return any(sup.isa(name) for sup in self.supers)

    def superclass_names(self) -> list[str]:
        """All superclasses, nearest first (``superclasses``)."""
        names: list[str] = []
        for sup in self.supers:
            if sup.name not in names:
                names.append(sup.name)
        for sup in self.supers:
            for name in sup.superclass_names():
                if name not in names:
                    names.append(name)
        if self.is_handle and "handle" not in names:
            names.append("handle")
        return names

    def method_names(self) -> list[str]:
        """Public method names of the class and its superclasses, sorted."""
        names = {n for n in self.methods if n not in self.private_methods}
        for sup in self.supers:
            names.update(sup.method_names())
        return sorted(names)

    def visible_properties(self) -> list[str]:
        """Public, non-hidden property names in declaration order."""
        return [p.name for p in self.properties.values()
                if p.get_access == "public" and not p.hidden]

    def default_values(self) -> dict[str, Any]:
        """Default value of every non-constant, non-dependent property,
        evaluated once per class (as MATLAB does when it loads the class)."""
        if self._defaults is None:
            values: dict[str, Any] = {}
            for prop in self.properties.values():
                if prop.constant or prop.dependent:
                    continue
                value = prop.default() if prop.default is not None else _empty()
                if prop.validate is not None and prop.default is not None:
                    value = prop.validate(value)   # e.g. ``N uint8 = 5`` is uint8
                values[prop.name] = value
            self._defaults = values
        return self._defaults

    def constant(self, name: str) -> Any:
        if name not in self._constants:
            prop = self.properties[name]
            self._constants[name] = prop.default() if prop.default is not None else _empty()
        return self._constants[name]


def _empty() -> Any:
    import numpy as np

    return np.zeros((0, 0))


class ClassObject(MObject):
    """A scalar instance of a ``classdef`` class."""

    __slots__ = ("cls", "props", "deleted", "enum_name", "listeners")

    def __init__(self, cls: ClassInfo, props: dict[str, Any]):
        self.cls = cls
        self.props = props
        self.deleted = False
        # The member name of an enumeration object, else None.
        self.enum_name: str | None = None
        # Event name -> listeners added by addlistener (handle objects).
        self.listeners: dict[str, list] = {}

    @property
    def class_name(self) -> str:   # type: ignore[override]
        return self.cls.name

    def property_names(self) -> list[str]:
        return self.cls.visible_properties()

    def copy(self) -> "ClassObject":
        return ClassObject(self.cls, dict(self.props))

    def _check_alive(self) -> None:
        if self.deleted:
            raise MatlabError("MATLAB:class:InvalidHandle", "Invalid or deleted object.")

    def get_property(self, name: str) -> Any:
        """``obj.name``: a property value (through ``get.name`` when defined)."""
        self._check_alive()
        cls = self.cls
        prop = cls.find_property(name)
        if prop is None:
            raise no_member(name, cls.name)
        if prop.get_access != "public" and not _may_access(cls.interp, prop, prop.get_access):
            raise MatlabError("MATLAB:class:GetProhibited",
                              f"Cannot access the '{name}' property of class '{cls.name}' "
                              f"(it has {prop.get_access} access).")
        if prop.constant:
            return cls.constant(name)
        getter = cls.find_getter(name)
        interp = cls.interp
        if getter is not None and not _running(interp, getter):
            out = interp.call_function(getter, [self], 1)
            if not out:
                raise MatlabError("MATLAB:unassignedOutputs",
                                  f"Get method for property '{name}' did not return a value.")
            return out[0]
        if prop.dependent:
            raise MatlabError("MATLAB:class:GetMethodMissing",
                              f"No get method is defined for Dependent property '{name}'.")
        return self.props[name]

    def set_property(self, name: str, value: Any) -> "ClassObject":
        """``obj.name = value``: the object after the assignment (a copy for
        value classes, the same object for handles)."""
        self._check_alive()
        cls = self.cls
        prop = cls.find_property(name)
        if prop is None:
            raise MatlabError("MATLAB:noPublicFieldForClass",
                              f"Unrecognized property '{name}' for class '{cls.name}'.")
        if prop.constant:
            raise MatlabError("MATLAB:class:SetProhibited",
                              f"Unable to set the '{name}' property of class '{cls.name}' "
                              f"because it is a read-only property.")
        if prop.set_access != "public" and not _may_access(cls.interp, prop, prop.set_access):
            raise MatlabError("MATLAB:class:SetProhibited",
                              f"Unable to set the '{name}' property of class '{cls.name}' "
                              f"(it has {prop.set_access} set access).")
        if prop.validate is not None:
            value = prop.validate(value)
        setter = cls.find_setter(name)
        interp = cls.interp
        if setter is not None and not _running(interp, setter):
            out = interp.call_function(setter, [self, value], min(1, len(setter.outputs)))
            if cls.is_handle:
                return self
            if not out or not isinstance(out[0], ClassObject):
                raise MatlabError("MATLAB:class:SetMethodOutput",
                                  f"Set method for property '{name}' must return the object.")
            return out[0]
        if prop.dependent:
            raise MatlabError("MATLAB:class:SetMethodMissing",
                              f"No set method is defined for Dependent property '{name}'.")
        target = self if cls.is_handle else self.copy()
        target.props[name] = value
        return target

    def __repr__(self) -> str:
        return f"ClassObject({self.cls.name})"


def method_for(name: str, args: list) -> Any:
    """MATLAB's dispatch: the method ``name`` of the first object argument's
    class (``area(p)``, ``disp(p)``, ``plus(a, b)``), or None."""
    for a in args:
        if isinstance(a, MObject):
            if isinstance(getattr(a, "cls", None), ClassInfo):
                cls = a.cls
                if cls.is_static(name):
                    return None
                method = cls.find_method(name)
                if method is not None:
                    check_method_access(cls, name, method)
                return method
            # built-in value classes (datetime, duration...): a Builtin
            overloads = getattr(a, "overloads", None)
            if overloads is not None:
                load_overloads()   # the modules declaring them load lazily
                overloads = getattr(a, "overloads", None)   # (a module may rebind it)
            if overloads:
                method = overloads.get(name)
                if method is not None:
                    return method
    return None


# Operators and the methods that overload them.
BINARY_METHODS = {
    "+": "plus", "-": "minus", ".*": "times", "*": "mtimes", "./": "rdivide",
    "/": "mrdivide", ".\\": "ldivide", "\\": "mldivide", ".^": "power", "^": "mpower",
    "==": "eq", "~=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge",
    "&": "and", "|": "or",
}
UNARY_METHODS = {"-": "uminus", "+": "uplus", "~": "not"}


def object_operator(op: str, operands: list) -> Any:
    """``a op b`` (or ``op a``) where an operand is an object: the class's
    overloading method (``plus``, ``eq``, ``uminus``...). Handle objects
    without ``eq``/``ne`` compare by identity, as MATLAB's handle class does."""
    name = (BINARY_METHODS if len(operands) == 2 else UNARY_METHODS)[op]
    method = method_for(name, operands)
    if method is not None:
        obj = next(a for a in operands if type(a) is ClassObject)
        out = obj.cls.interp.call_function(method, list(operands), 1)
        if not out:
            raise MatlabError("MATLAB:TooManyOutputs", "Too many output arguments.")
        return out[0]
    if name in ("eq", "ne"):
        same = _enum_text_equal(operands)
        if same is not None:
            return same if name == "eq" else not same
    if name in ("eq", "ne") and all(type(a) is ClassObject and (
            a.cls.is_handle or a.enum_name is not None) for a in operands):
        # handles and enumeration members compare by identity
        same = operands[0] is operands[1]
        return same if name == "eq" else not same
    cls = next(a for a in operands if type(a) is ClassObject).cls.name
    raise MatlabError("MATLAB:UndefinedFunction",
                      f"Operator '{op}' is not supported for operands of type '{cls}'.")


def check_method_access(cls: ClassInfo, name: str, method: Any) -> None:
    """MATLAB's error for calling a private method from outside its class,
    or a protected one from outside the class and its subclasses."""
    owner = getattr(method, "defining_class", None)
    level = owner.method_access.get(name) if isinstance(owner, ClassInfo) else None
    if level is None:
        return
    caller = _calling_class(cls.interp)
    if caller is not None and (caller.name == owner.name
                               or (level == "protected" and caller.isa(owner.name))):
        return
    raise MatlabError("MATLAB:class:MethodRestricted",
                      f"Cannot access method '{name}' in class '{cls.name}'.")


def _calling_class(interp: Any) -> ClassInfo | None:
    """The class whose method (or class-file code) is running, if any."""
    frame = interp.frame if interp is not None else None
    if frame is None:
        return None
    caller = getattr(frame.function, "defining_class", None)
    if caller is None:
        # code of the class file outside methods: anonymous functions made
        # in a method run with the file's scope
        primary = getattr(frame.scope, "primary", None)
        caller = primary if isinstance(primary, ClassInfo) else None
    return caller


def _may_access(interp: Any, prop: PropertyInfo, level: str) -> bool:
    """Whether the running function may use a non-public property: methods
    of the defining class (``private``, ``immutable``: its constructor only
    for sets, which the constructor check covers loosely) or of subclasses
    (``protected``)."""
    caller = _calling_class(interp)
    if caller is None:
        return False
    if level == "protected":
        return caller.isa(prop.defining)
    return caller.name == prop.defining


def _enum_text_equal(operands: list) -> bool | None:
    """An enumeration member compared with text compares its name (MATLAB:
    ``Color.Red == 'Red'``); None when the operands are not such a pair."""
    from matfuse.runtime.values import StringArray, is_char, to_str

    if len(operands) != 2:
        return None
    a, b = operands
    if type(b) is ClassObject and b.enum_name is not None:
        a, b = b, a
    if type(a) is not ClassObject or a.enum_name is None:
        return None
    if not (is_char(b) or (isinstance(b, StringArray) and b.data.size == 1)):
        return None
    return to_str(b) == a.enum_name


def _running(interp: Any, function: Any) -> bool:
    """True while ``function`` (an accessor) is the running function: inside
    it, the property is read and written directly."""
    frame = interp.frame if interp is not None else None
    return frame is not None and frame.function is function


def no_member(name: str, class_name: str) -> MatlabError:
    return MatlabError("MATLAB:noSuchMethodOrField",
                       f"Unrecognized method, property, or field '{name}' for class "
                       f"'{class_name}'.")
