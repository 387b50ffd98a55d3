"""Slotted record classes for the AST, built cheaply at import.

``@node`` gives a class what ``@dataclass(slots=True)`` gave the AST nodes
(``__slots__``, an ``__init__`` taking the fields in order with their
defaults, field-wise ``__eq__``, ``__repr__``, ``__match_args__``, no hash)
without the dataclass machinery, which cost most of the parser's import
time (about 12 ms for 40 classes, paid by every start-up). The ``__init__``
methods of all classes decorated so far are compiled together, in one
``compile`` call, by ``finish_node_classes()`` at the end of the module that
declares them.

Fields are the class's own annotations, after its base's; a default is a
plain class attribute or ``field(default_factory=...)`` for a fresh list or
dict per instance.
"""

from __future__ import annotations

from typing import Any, Callable

# A field with no default, and a factory default, in ``_defaults``.
_NO_DEFAULT = object()


class _Factory:
    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]):
        self.make = make


def field(*, default_factory: Callable[[], Any]) -> Any:
    """A field whose default is a new ``default_factory()`` per instance."""
    return _Factory(default_factory)


_PENDING: list[type] = []


def node(cls: type) -> type:
    """``cls`` rebuilt with ``__slots__`` for its own annotated fields; its
    ``__init__`` comes with the next ``finish_node_classes()``."""
    own = list(cls.__dict__.get("__annotations__", {}))
    namespace = dict(cls.__dict__)
    defaults: dict[str, Any] = {}
    for base in reversed(cls.__mro__[1:]):
        defaults.update(getattr(base, "_defaults", {}))
    for name in own:
        defaults[name] = namespace.pop(name, _NO_DEFAULT)
    for key in ("__dict__", "__weakref__"):
        namespace.pop(key, None)
    inherited = tuple(getattr(cls.__mro__[1], "_fields", ()))
    fields = inherited + tuple(f for f in own if f not in inherited)
    seen_default = False
    for name in fields:
        if defaults[name] is not _NO_DEFAULT:
            seen_default = True
        elif seen_default:
            raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with")
    namespace["__slots__"] = tuple(own)
    namespace["_fields"] = fields
    namespace["_defaults"] = defaults
    namespace["__match_args__"] = fields
    built = type(cls)(cls.__name__, cls.__bases__, namespace)
    built.__qualname__ = cls.__qualname__
    _PENDING.append(built)
    return built


def finish_node_classes() -> None:
    """Compile the ``__init__`` of every class decorated since the last call."""
    sources: list[str] = []
    values: dict[str, Any] = {"_UNSET": _NO_DEFAULT}
    for k, cls in enumerate(_PENDING):
        params, body = [], []
        for name in cls._fields:
            default = cls._defaults[name]
            if default is _NO_DEFAULT:
                params.append(name)
                body.append(f"    self.{name} = {name}")
            elif isinstance(default, _Factory):
                values[f"_f{k}_{name}"] = default.make
                params.append(f"{name}=_UNSET")
                body.append(f"    self.{name} = _f{k}_{name}() if {name} is _UNSET else {name}")
            else:
                values[f"_d{k}_{name}"] = default
                params.append(f"{name}=_d{k}_{name}")
                body.append(f"    self.{name} = {name}")
        sources.append(f"def _init{k}(self, {', '.join(params)}):\n"
                       + ("\n".join(body) or "    pass") + "\n")
    exec(compile("\n".join(sources), "<ast node classes>", "exec"), values)
    for k, cls in enumerate(_PENDING):
        init = values[f"_init{k}"]
        init.__qualname__ = f"{cls.__qualname__}.__init__"
        cls.__init__ = init
    _PENDING.clear()


class NodeBase:
    """Equality, representation and (no) hashing shared by ``@node`` classes."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _defaults: dict[str, Any] = {}

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return tuple(getattr(self, f) for f in self._fields) \
            == tuple(getattr(other, f) for f in self._fields)

    __hash__ = None  # type: ignore[assignment]   # mutable records, as dataclasses with eq

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{self.__class__.__qualname__}({inner})"
