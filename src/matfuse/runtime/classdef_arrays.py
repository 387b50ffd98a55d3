"""Arrays of ``classdef`` objects: ``[p1, p2]``, ``ps(3) = Point(1, 2)``,
``ps(2).X``, ``[ps.X]``.

An ``ObjectArray`` holds an object ndarray of ``ClassObject`` elements of one
class (any shape except 1x1: a 1x1 array is the ``ClassObject`` itself).
Indexing (``indexing``), assignment (``_assign``) and concatenation
(``_concat``) run the cell-array machinery on the element array, with the
object rules from here; elements created by growing an array are default
objects (the constructor called with no arguments), as in MATLAB.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.classdef_objects import ClassInfo, ClassObject
from matfuse.runtime._subscripts import DELETE
from matfuse.runtime.values import CellArray, MObject


class ObjectArray(MObject):
    """A non-scalar array of objects of class ``cls``."""

    __slots__ = ("cls", "data")

    def __init__(self, cls: ClassInfo, data: np.ndarray):
        self.cls = cls
        self.data = data

    @property
    def class_name(self) -> str:   # type: ignore[override]
        return self.cls.name

    @property
    def shape(self) -> tuple[int, ...]:   # type: ignore[override]
        return self.data.shape

    def property_names(self) -> list[str]:
        return self.cls.visible_properties()

    def get_property(self, name: str) -> Any:
        values = self.property_values(name)
        if len(values) != 1:
            raise MatlabError("MATLAB:index:expected_one_output_from_expression",
                              f"Expected one output from a curly brace or dot indexing "
                              f"expression, but there were {len(values)} results.")
        return values[0]

    def property_values(self, name: str) -> list:
        """``arr.name``: one value per element, column-major (a cs-list)."""
        return [e.get_property(name) for e in self.data.reshape(-1, order="F")]

    def __repr__(self) -> str:
        return f"ObjectArray({self.cls.name}, shape={self.shape})"


OBJECT_TYPES = (ClassObject, ObjectArray)


def object_elements(v: Any) -> np.ndarray:
    """The element array of an object or object array (1x1 for an object)."""
    if type(v) is ObjectArray:
        return v.data
    data = np.empty((1, 1), dtype=object)
    data[0, 0] = v
    return data


def wrap_objects(cls: ClassInfo, data: np.ndarray) -> Any:
    """A ClassObject for one element, else an ObjectArray."""
    if data.size == 1:
        return data.reshape(-1)[0]
    return ObjectArray(cls, data)


def object_assignment_cells(v: Any, rhs: Any) -> tuple[ClassInfo, Any, Any]:
    """``objs(idx) = rhs`` as a cell-array assignment: (class of the result,
    left side as a CellArray or None, right side as a CellArray or DELETE).

    ``rhs`` is an object, an object array or DELETE; any other right side,
    or a non-empty non-object left side, is MATLAB's conversion error.
    Indexed assignment (``_assign``) runs the cell assignment and hands the
    result to :func:`objects_from_cells`."""
    target = v if type(v) in OBJECT_TYPES else None
    cls = target.cls if target is not None else rhs.cls
    if rhs is not DELETE:
        if type(rhs) not in OBJECT_TYPES:
            raise MatlabError("MATLAB:invalidConversion",
                              f"Conversion to {cls.name} from {_class_name(rhs)} is not "
                              f"possible.")
        if not rhs.cls.isa(cls.name):
            raise MatlabError("MATLAB:invalidConversion",
                              f"Conversion to {cls.name} from {rhs.cls.name} is not possible.")
    current = CellArray(object_elements(target)) if target is not None else None
    if current is None and v is not None and not (
            type(v) is np.ndarray and v.size == 0):
        raise MatlabError("MATLAB:invalidConversion",
                          f"Conversion to {_class_name(v)} from {cls.name} is not possible.")
    cells = rhs if rhs is DELETE else CellArray(object_elements(rhs))
    return cls, current, cells


def objects_from_cells(cls: ClassInfo, result: CellArray) -> Any:
    """The object array of an assigned cell array: elements created by
    growing it are default objects (a handle class shares one default)."""
    data = result.data
    flat = data.reshape(-1, order="F")
    default = None
    for k, element in enumerate(flat):
        if type(element) is not ClassObject:
            if default is None:
                default = cls.default_object()
            flat[k] = default if cls.is_handle else default.copy()
    return wrap_objects(cls, flat.reshape(data.shape, order="F"))


def _class_name(v: Any) -> str:
    from matfuse.runtime.values import class_of

    return class_of(v)


def objects_to_concatenate(values: list) -> tuple[ClassInfo, list[np.ndarray]]:
    """``[a, b]`` / ``[a; b]`` of objects of one class: (the class, the
    element arrays to join; ``[]`` is skipped). Concatenation (``_concat``)
    joins them and wraps the result with :func:`wrap_objects`."""
    parts = []
    cls: ClassInfo | None = None
    for v in values:
        if type(v) is np.ndarray and v.size == 0:
            continue
        if type(v) not in OBJECT_TYPES:
            name = cls.name if cls is not None else next(
                x.cls.name for x in values if type(x) in OBJECT_TYPES)
            raise MatlabError("MATLAB:invalidConversion",
                              f"Conversion to {name} from {_class_name(v)} is not possible.")
        if cls is None:
            cls = v.cls
        elif v.cls is not cls:
            raise MatlabError("MATLAB:class:heterogeneousConcatenation",
                              f"Concatenation of {cls.name} and {v.cls.name} objects is not "
                              f"allowed.")
        parts.append(object_elements(v))
    return cls, parts


def object_columns(v: ObjectArray) -> list:
    """What ``for x = objs`` assigns on each iteration (columns)."""
    data = v.data
    if data.size == 0:
        return []
    flat = data.reshape(data.shape[0], -1, order="F")
    return [wrap_objects(v.cls, flat[:, j:j + 1].copy()) for j in range(flat.shape[1])]
