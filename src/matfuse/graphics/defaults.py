"""Default property values set on the graphics root
(``set(groot, 'DefaultLineLineWidth', 2)``): stored here and given to every
new object of that type (figures, axes, lines, texts) when it is made."""

from __future__ import annotations

from typing import Any

from matfuse.errors import MatlabError

DEFAULT_TYPES = ("figure", "axes", "line", "text")

#: lower-case ``Default<Type><Property>`` -> (type, property, value)
DEFAULTS: dict[str, tuple[str, str, Any]] = {}


def default_key(name: str) -> tuple[str, str] | None:
    """('line', 'LineWidth') for 'DefaultLineLineWidth' (None: not a default)."""
    lower = name.lower()
    if not lower.startswith("default"):
        return None
    rest = name[len("default"):]
    for kind in DEFAULT_TYPES:
        if rest.lower().startswith(kind) and len(rest) > len(kind):
            return kind, rest[len(kind):]
    raise MatlabError("MATLAB:hg:InvalidProperty",
                      f"Unsupported default '{name}': defaults exist for "
                      + ", ".join(DEFAULT_TYPES) + " objects.")


def apply_defaults(obj: Any) -> None:
    """Give a new graphics object the defaults set for its type."""
    for kind, prop, value in list(DEFAULTS.values()):
        if kind == obj.type_name:
            obj.set(prop, value)
