"""Property validation of ``classdef`` properties:
``name (dims) class {validators}``.

On every set (and for the default value) MATLAB converts the value to the
declared class, checks its size (``:`` matches any length; a scalar expands
to a fixed size) and calls each validation function, which errors when the
value is not valid. Errors are reported as ``Error setting property 'P' of
class 'C'. <reason>``.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.lang import ast
from matfuse.runtime.values import (
    CLASS_DTYPES, CellArray, StringArray, StructArray, class_of, shape_of,
)

_CONVERTIBLE = frozenset(CLASS_DTYPES) | {"string", "cell"}


def _prefix(prop: str, cls: str) -> str:
    return f"Error setting property '{prop}' of class '{cls}'. "


def _dims_text(dims: list[int | None]) -> str:
    return "\u00d7".join(":" if d is None else str(d) for d in dims)


def _initial(class_name: str | None, dims: list[int | None] | None) -> Any:
    """The value a validated property starts with when it has no default."""
    fixed = dims is not None and all(d is not None for d in dims)
    if class_name in CLASS_DTYPES and class_name != "char":
        if fixed:
            shape = tuple(int(d) for d in dims)
            arr = np.zeros(shape, dtype=CLASS_DTYPES[class_name])
            if arr.size == 1 and class_name == "double":
                return 0.0
            if arr.size == 1 and class_name == "logical":
                return False
            return arr
        return np.zeros((0, 0), dtype=CLASS_DTYPES[class_name])
    if class_name == "char":
        return np.zeros((0, 0), dtype=CLASS_DTYPES["char"])
    if class_name == "string":
        return StringArray.scalar("")
    if class_name == "cell":
        return CellArray.empty((0, 0))
    if class_name == "struct":
        return StructArray([], np.empty((1, 1), dtype=object))
    return np.zeros((0, 0))


def property_validator(prop: ast.PropertyDef, info: Any,
                       checks: list[Callable[[Any], None]],
                       prefix: str | None = None) -> Callable[[Any], Any] | None:
    """``validate(value) -> value`` for a property with a size, class or
    validator list (``checks``: the compiled validation functions); None
    when it has none. ``info`` gives ``name`` and ``interp``; ``prefix``
    starts error messages (default: the property's)."""
    if prop.size is None and prop.class_name is None and not prop.validators:
        return None
    dims: list[int | None] | None = None
    if prop.size is not None:
        dims = [None if isinstance(d, ast.Colon) else int(d.value) for d in prop.size]
    class_name = prop.class_name
    if prefix is None:
        prefix = _prefix(prop.name, info.name)

    def validate(value: Any) -> Any:
        if class_name is not None:
            value = _convert(info.interp, value, class_name, prefix)
        if dims is not None:
            value = _sized(value, dims, prefix)
        for check in checks:
            try:
                check(value)
            except MatlabError as err:
                raise MatlabError(err.identifier, prefix + err.message) from None
        return value

    validate.initial_value = lambda: _initial(class_name, dims)  # type: ignore[attr-defined]
    return validate


def _convert(interp: Any, value: Any, class_name: str, prefix: str) -> Any:
    current = class_of(value)
    if current == class_name:
        return value
    if class_name in _CONVERTIBLE and interp is not None:
        try:
            return interp.call(class_name, [value], 1)[0]
        except MatlabError:
            pass
    else:
        isa = getattr(getattr(value, "cls", None), "isa", None)
        if isa is not None and isa(class_name):
            return value
    raise MatlabError("MATLAB:validation:UnableToConvert",
                      f"{prefix}Value must be {class_name} or be convertible to {class_name}.")


def _sized(value: Any, dims: list[int | None], prefix: str) -> Any:
    shape = list(shape_of(value))
    if len(shape) == len(dims) and all(d is None or d == s for d, s in zip(dims, shape)):
        return value
    if all(d is not None for d in dims) and shape == [1, 1] and (
            type(value) in (float, bool) or type(value) is np.ndarray):
        # A scalar expands to a fixed size.
        arr = np.asarray(value).reshape(1, 1)
        return np.broadcast_to(arr, tuple(int(d) for d in dims)).copy()
    raise MatlabError("MATLAB:validation:IncompatibleSize",
                      f"{prefix}Value must be of size {_dims_text(dims)}.")
