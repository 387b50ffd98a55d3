"""``set``/``get`` of graphics properties and ``isgraphics``."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.graphics.args import is_text, name_value_pairs, text_of, texts_of
from matfuse.graphics.groot import objects_of
from matfuse.graphics.handles import GraphicsHandle
from matfuse.runtime.values import CellArray, StructArray


def set_properties(target: Any, pairs: tuple[Any, ...]) -> None:
    objects = objects_of(target, "First argument")
    items = list(pairs)
    if len(items) == 2 and isinstance(items[0], CellArray):   # set(h, {names}, {values})
        names = texts_of(items[0])
        values = list(items[1].data.reshape(-1, order="F"))
        parsed = list(zip(names, values))
    else:
        parsed = name_value_pairs(items, "set")
    for obj in objects:
        if obj.deleted:
            raise MatlabError("MATLAB:class:InvalidHandle", "Invalid or deleted object.")
        for name, value in parsed:
            obj.set(name, value)


def get_properties(target: Any, name: Any) -> Any:
    objects = objects_of(target, "First argument")
    for obj in objects:
        if obj.deleted:
            raise MatlabError("MATLAB:class:InvalidHandle", "Invalid or deleted object.")
    if name is None:
        if len(objects) != 1:
            raise MatlabError("MATLAB:graphics:getArray",
                              "get(h) without a property name needs a single object.")
        obj = objects[0]
        names = obj.all_props()
        return StructArray.scalar({n: obj.get(n) for n in names})
    if not is_text(name):
        names = texts_of(name)
        values = [obj.get(n) for obj in objects for n in names]
        data = np.empty((len(objects), len(names)), dtype=object)
        for k, v in enumerate(values):
            data[k // len(names), k % len(names)] = v
        return CellArray(data)
    prop = text_of(name)
    if len(objects) == 1:
        return objects[0].get(prop)
    return CellArray.from_list([obj.get(prop) for obj in objects], (len(objects), 1))


def is_graphics(value: Any, kind: Any) -> Any:
    want = text_of(kind).lower() if kind is not None else None
    if isinstance(value, GraphicsHandle):
        flags = [not o.deleted and (want is None or o.type_name == want) for o in value.objects]
        shape = value.shape
    else:
        from matfuse.graphics.args import is_numeric, numeric
        from matfuse.graphics.root import ROOT

        if not is_numeric(value):
            return False
        arr = numeric(value).real
        flags = []
        for number in arr.reshape(-1, order="F"):
            whole = bool(np.isfinite(number)) and number == int(number)
            fig = ROOT.figures.get(int(number)) if whole else None
            flags.append(fig is not None and not fig.deleted and want in (None, "figure"))
        shape = arr.shape
    if len(flags) == 1:
        return bool(flags[0])
    return np.array(flags, dtype=bool).reshape(shape, order="F")
