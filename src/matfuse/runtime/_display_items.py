"""Short summaries of values shown inside cell arrays and struct fields.

MATLAB shows a cell element as ``{[1]}``, ``{'abc'}``, ``{2×2 double}`` and a
struct field as ``a: 1``, ``b: 'hi'``, ``c: [2×2 double]``.  Both use the
same small vocabulary, built here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._format_numbers import inline_row_text, scalar_text
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    DeviceValue,
    FunctionHandle,
    MObject,
    StringArray,
    StructArray,
    class_of,
    numel,
    shape_of,
    to_array,
)

TIMES = "\u00d7"
# Longest numeric row vector shown inline (``[1 2 3]``) rather than ``1×N double``.
_INLINE_MAX = 10


def dims_text(shape: tuple[int, ...]) -> str:
    """``2×3`` (MATLAB's multiplication sign)."""
    return TIMES.join(str(d) for d in shape)


def _numeric_summary(arr: np.ndarray) -> tuple[str, bool]:
    """(text, bracketed?) for a numeric/logical array inside a container."""
    cls = class_of(arr)
    if arr.size == 1:
        return scalar_text(arr), True
    if arr.size and arr.ndim == 2 and arr.shape[0] == 1 and arr.shape[1] <= _INLINE_MAX:
        return inline_row_text(arr), True
    return f"{dims_text(arr.shape)} {cls}", False


def _host(value: Any) -> Any:
    if isinstance(value, DeviceValue):
        return value.gather()
    return value


def cell_item_text(value: Any) -> tuple[str, str]:
    """Text inside the braces of a cell element and its kind.

    kind is ``num`` (bracketed number, padded inside the brackets) or
    ``text`` (padded after the text).
    """
    value = _host(value)
    t = type(value)
    if t is float or t is bool or t is complex:
        value = to_array(value)
        t = np.ndarray
    if t is np.ndarray:
        if value.dtype == CHAR_DTYPE:
            if value.ndim == 2 and value.shape[0] == 1:
                return "'" + "".join(value[0, :].tolist()) + "'", "text"
            return f"{dims_text(value.shape)} char", "text"
        text, bracketed = _numeric_summary(value)
        if bracketed:
            return text, "num"
        return text, "text"
    if t is StringArray:
        if value.data.size == 1:
            s = value.data.reshape(-1)[0]
            return ("[<missing>]" if s is None else f'["{s}"]'), "text"
        return f"{dims_text(value.shape)} string", "text"
    if t is CellArray:
        return f"{dims_text(value.shape)} cell", "text"
    if t is StructArray:
        return f"{dims_text(value.shape)} struct", "text"
    if t is FunctionHandle:
        return value.display_text(), "text"
    if hasattr(value, "element_texts") and numel(value) == 1:   # datetime, duration...
        return f"[{value.element_texts()[0]}]", "text"
    return f"{dims_text(shape_of(value))} {class_of(value)}", "text"


def cell_rows(cell: CellArray) -> list[str]:
    """Body lines of a cell array display (2-D; N-D flattened to columns)."""
    data = cell.data
    if data.ndim > 2:
        data = data.reshape(data.shape[0], -1, order="F")
    items = [[cell_item_text(data[r, c]) for c in range(data.shape[1])] for r in range(data.shape[0])]
    widths = []
    for c in range(data.shape[1]):
        col = [items[r][c] for r in range(data.shape[0])]
        num_w = max((len(t) for t, k in col if k == "num"), default=0)
        txt_w = max((len(t) for t, k in col if k == "text"), default=0)
        widths.append((num_w, max(num_w + 2, txt_w)))
    lines = []
    for r in range(data.shape[0]):
        parts = []
        for c in range(data.shape[1]):
            text, kind = items[r][c]
            num_w, total = widths[c]
            if kind == "num":
                body = "[" + text.rjust(num_w) + "]"
            else:
                body = text
            parts.append("{" + body.ljust(total) + "}")
        lines.append("    " + "    ".join(parts))
    return [line.rstrip() for line in lines]


def field_value_text(value: Any) -> str:
    """A struct field value as shown after ``name: ``."""
    value = _host(value)
    t = type(value)
    if t is float or t is bool or t is complex:
        value = to_array(value)
        t = np.ndarray
    if t is np.ndarray:
        if value.dtype == CHAR_DTYPE:
            if value.ndim == 2 and value.shape[0] == 1:
                return "'" + "".join(value[0, :].tolist()) + "'"
            if value.size == 0:
                return "''" if value.shape[0] <= 1 and value.ndim == 2 else f"[{dims_text(value.shape)} char]"
            return f"[{dims_text(value.shape)} char]"
        if value.size == 0:
            if value.shape == (0, 0) and value.dtype == np.float64:
                return "[]"
            return f"[{dims_text(value.shape)} {class_of(value)}]"
        if value.size == 1:
            return scalar_text(value)
        return f"[{_numeric_summary(value)[0]}]"
    if t is StringArray:
        if value.data.size == 1:
            s = value.data.reshape(-1)[0]
            return "<missing>" if s is None else f'"{s}"'
        return f"[{dims_text(value.shape)} string]"
    if t is CellArray:
        if value.data.size == 0 and value.shape == (0, 0):
            return "{}"
        return f"{{{dims_text(value.shape)} cell}}"
    if t is StructArray:
        return f"[{dims_text(value.shape)} struct]"
    if t is FunctionHandle:
        return value.display_text()
    if hasattr(value, "element_texts") and numel(value) == 1:   # datetime, duration...
        return value.element_texts()[0]
    if isinstance(value, (MObject, MatlabError)):
        return f"[{dims_text(shape_of(value))} {class_of(value)}]"
    return repr(value)


def struct_field_lines(mapping: dict[str, Any], fields: list[str]) -> list[str]:
    """``    name: value`` lines with names right-aligned."""
    width = max((len(f) for f in fields), default=0)
    return [f"    {f.rjust(width)}: {field_value_text(mapping[f])}" for f in fields]
