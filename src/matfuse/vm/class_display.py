"""Command-window display of objects: ``name = obj`` without a semicolon.

An overloaded ``display`` method runs (``inputname(1)`` gives the variable
name); an overloaded ``disp`` prints under the ``name =`` header; otherwise
MATLAB's default ``Class with properties:`` display, the enumeration member,
or ``handle to deleted Class``.
"""

from __future__ import annotations

from typing import Any

from matfuse.runtime.classdef_arrays import ObjectArray
from matfuse.runtime.classdef_objects import ClassObject


def show_object(interp: Any, name: str, obj: ClassObject | ObjectArray) -> None:
    """``name = obj`` without a semicolon: an overloaded ``display`` runs; an
    overloaded ``disp`` prints under the ``name =`` header; otherwise the
    default ``Class with properties:`` display (or the enumeration member)."""
    from matfuse.runtime.display import display_value
    from matfuse.runtime.values import char_array

    cls = obj.cls
    compact = interp.display_spacing == "compact"
    gap = "" if compact else "\n"
    if getattr(obj, "deleted", False):
        interp.write(f"{name} = \n{gap}  handle to deleted {cls.name}\n{gap}")
        return
    display = cls.find_method("display")
    if display is not None:
        takes_name = len(display.params) >= 2 or display.varargin
        interp.call_function(display, [obj, char_array(name)] if takes_name else [obj], 0,
                             input_names=[name])
        return
    disp = cls.find_method("disp")
    if disp is not None:
        interp.write(f"{name} = \n{gap}")
        interp.call_function(disp, [obj], 0)
        interp.write(gap)
        return
    if getattr(obj, "enum_name", None) is not None:
        interp.write(f"{name} = \n{gap}  {cls.name} enumeration\n{gap}    {obj.enum_name}\n{gap}")
        return
    interp.write(display_value(name, obj, interp.display_format, compact))
