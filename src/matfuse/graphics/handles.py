"""Graphics handles as MATLAB values.

A ``GraphicsHandle`` is an array (usually 1x1 or a column) of graphics
objects. It behaves as a MATLAB handle: ``h.Prop`` reads and
``h.Prop = v`` writes the object itself, and every handle of one object is
the same Python object (``obj.handle``), so ``isequal(f, gcf)`` holds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.values import MObject


class GraphicsHandle(MObject):
    """A MATLAB graphics object array (``matlab.ui.Figure``, ``...Line``...)."""

    def __init__(self, objects: list[Any], shape: tuple[int, int] | None = None):
        self.objects = list(objects)
        self._shape = shape if shape is not None else (len(self.objects), 1 if self.objects else 0)
        if not self.objects:
            self._shape = (0, 0)

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    @property
    def class_name(self) -> str:  # type: ignore[override]
        classes = {o.matlab_class for o in self.objects}
        if not classes:
            return "matlab.graphics.GraphicsPlaceholder"
        if len(classes) == 1:
            return classes.pop()
        return "matlab.graphics.Graphics"

    def single(self) -> Any:
        if len(self.objects) != 1:
            raise MatlabError("MATLAB:index:expected_one_output_from_expression",
                              "Expected one output from a curly brace or dot indexing "
                              f"expression, but there were {len(self.objects)} results.")
        obj = self.objects[0]
        if obj.deleted:
            raise MatlabError("MATLAB:class:InvalidHandle", "Invalid or deleted object.")
        return obj

    def get_property(self, name: str) -> Any:
        return self.single().get(name)

    def set_property(self, name: str, value: Any) -> "GraphicsHandle":
        for obj in self.objects:
            if obj.deleted:
                raise MatlabError("MATLAB:class:InvalidHandle", "Invalid or deleted object.")
            obj.set(name, value)
        return self

    def property_names(self) -> list[str]:
        if len(self.objects) == 1 and not self.objects[0].deleted:
            return list(self.objects[0].display_props)
        return []

    def display_lines(self) -> list[str]:
        """What ``disp``/display show: the short property list of one object,
        the element types of an array (MATLAB's layout)."""
        from matfuse.runtime._display_items import struct_field_lines

        if len(self.objects) == 1:
            obj = self.objects[0]
            if obj.deleted:
                return [f"  handle to deleted {obj.short_class}"]
            names = list(obj.display_props)
            values = {n: obj.get(n) for n in names}
            return ([f"  {obj.title_text()} with properties:", ""]
                    + struct_field_lines(values, names) + ["", "  Use GET to show all properties"])
        rows, cols = self._shape
        kinds = {o.short_class for o in self.objects}
        kind = kinds.pop() if len(kinds) == 1 else "graphics"
        lines = [f"  {rows}\u00d7{cols} {kind} array:", ""]
        lines += [f"    {o.short_class}" for o in self.objects]
        return lines

    def delete_objects(self) -> None:
        """``delete(h)``: figures close; other objects leave their parent
        (``GObject.remove``)."""
        for obj in self.objects:
            if not obj.deleted:
                obj.remove()

    def element_array(self) -> np.ndarray:
        """The handles as an object array of one-object handles (for indexing)."""
        data = np.empty(len(self.objects), dtype=object)
        for k, obj in enumerate(self.objects):
            data[k] = obj.handle
        return data.reshape(self._shape, order="F")

    def from_elements(self, data: np.ndarray) -> "GraphicsHandle":
        """A handle array from an object array of handles (``h(2)``, ``h([1 3])``)."""
        objects = []
        for element in data.reshape(-1, order="F"):
            if not isinstance(element, GraphicsHandle):
                raise MatlabError("MATLAB:invalidConversion",
                                  "Only graphics handles can be stored in a graphics array.")
            objects.extend(element.objects)
        if len(objects) == 1:
            return objects[0].handle
        shape = tuple(data.shape) if data.ndim == 2 else (len(objects), 1)
        return GraphicsHandle(objects, shape)   # type: ignore[arg-type]


def handle_of(objects: list[Any]) -> GraphicsHandle:
    """The handle value for graphics objects (one object: its own handle)."""
    if len(objects) == 1:
        return objects[0].handle
    return GraphicsHandle(objects)


def handle_objects(value: Any, what: str = "Input") -> list[Any]:
    """The graphics objects of a handle value, or an error (``groot.objects_of``
    also takes ``0``, the root)."""
    if isinstance(value, GraphicsHandle):
        return value.objects
    raise MatlabError("MATLAB:graphics:invalidHandle",
                      f"{what} must be a graphics object handle.")
