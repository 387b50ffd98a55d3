"""Display of values: what MATLAB prints for ``x = value`` and ``disp(value)``.

Contract used by the VM:

* ``display_value(name: str, value, fmt: str, compact=False) -> str``: the
  text MATLAB prints for ``name = value`` without a semicolon (``format
  loose``: header line, blank line, body, blank line; ``compact=True`` drops
  the blank lines).  ``fmt`` is ``short`` or ``long``.
* ``disp_text(value, fmt: str) -> str``: what ``disp(value)`` prints (no
  name, no surrounding blank lines; nothing for an empty value).

Numbers are formatted by ``_format_numbers``; summaries of values inside
cells and struct fields by ``_display_items``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._display_items import (
    cell_rows,
    dims_text,
    struct_field_lines,
)
from matfuse.runtime._format_numbers import NumericLayout, numeric_layout
from matfuse.runtime.classdef_arrays import ObjectArray
from matfuse.runtime.sparse_matrix import SparseMatrix
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    DeviceValue,
    FunctionHandle,
    MObject,
    StringArray,
    StructArray,
    class_of,
    to_array,
)

TERMINAL_WIDTH = 80


# ----------------------------------------------------------- numeric bodies
def _matrix_lines(layout: NumericLayout, page: tuple[int, ...] | None) -> list[list[str]]:
    """Rows of one 2-D page, as lists of padded element texts."""
    texts = layout.texts if page is None else layout.texts[(slice(None), slice(None)) + page]
    rows: list[list[str]] = []
    for r in range(texts.shape[0]):
        rows.append([str(t).rjust(layout.width) for t in texts[r, :]])
    return rows


def _chunked(rows: list[list[str]], width: int, ncols: int) -> list[str]:
    """Body lines of one page, split into ``Columns N through M`` chunks."""
    per_chunk = max(1, TERMINAL_WIDTH // max(width, 1))
    if ncols <= per_chunk:
        return ["".join(r) for r in rows]
    lines: list[str] = []
    for start in range(0, ncols, per_chunk):
        stop = min(start + per_chunk, ncols)
        if stop - start == 1:
            lines.append(f"  Column {start + 1}")
        else:
            lines.append(f"  Columns {start + 1} through {stop}")
        lines.append("")
        lines.extend("".join(r[start:stop]) for r in rows)
        lines.append("")
    lines.pop()  # no blank after the last chunk; the caller adds its own
    return lines


def _numeric_page_lines(layout: NumericLayout, page: tuple[int, ...] | None, ncols: int) -> list[str]:
    lines: list[str] = []
    if layout.scale_header is not None:
        lines += [layout.scale_header, ""]
    lines += _chunked(_matrix_lines(layout, page), layout.width, ncols)
    return lines


def _pages(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Indices of the trailing dims of every 2-D page, column-major order."""
    trailing = shape[2:]
    return [tuple(int(i) for i in idx)
            for idx in (np.unravel_index(k, trailing, order="F") for k in range(int(np.prod(trailing))))]


def _page_label(name: str, page: tuple[int, ...]) -> str:
    return f"{name}(:,:,{','.join(str(i + 1) for i in page)})"


def _class_header(arr: np.ndarray) -> str | None:
    """``  1×3 int8 row vector`` lines MATLAB shows for non-double classes."""
    cls = class_of(arr)
    if cls == "double" or arr.dtype == CHAR_DTYPE:
        return None
    if arr.size == 1:
        return f"  {cls}"
    if cls == "logical" or arr.ndim > 2:
        return f"  {dims_text(arr.shape)} {cls} array"
    if arr.shape[0] == 1:
        return f"  {dims_text(arr.shape)} {cls} row vector"
    if arr.shape[1] == 1:
        return f"  {dims_text(arr.shape)} {cls} column vector"
    return f"  {dims_text(arr.shape)} {cls} matrix"


def _empty_text(arr: np.ndarray) -> str:
    cls = class_of(arr)
    shape = arr.shape
    if cls == "double" and shape == (0, 0) and arr.dtype.kind != "c":
        return "     []"
    if cls in ("char", "logical") or len(shape) > 2:
        kind = "array"
    elif shape[0] == 1:
        kind = "row vector"
    elif shape[1] == 1:
        kind = "column vector"
    else:
        kind = "matrix"
    return f"  {dims_text(shape)} empty {cls} {kind}"


def _char_lines(arr: np.ndarray, quoted: bool) -> list[str]:
    if arr.ndim > 2:
        arr = arr.reshape(arr.shape[0], -1, order="F")
    rows = ["".join(arr[r, :].tolist()) for r in range(arr.shape[0])]
    if quoted:
        return [f"    '{r}'" for r in rows]
    return rows


def _host_array(value: Any) -> Any:
    """The value as display sees it: gathered from the device, and numbers
    (Python scalars, NumPy scalars) as 1x1 arrays; other wrappers unchanged."""
    if isinstance(value, DeviceValue):
        value = value.gather()
    if isinstance(value, np.generic):
        return np.asarray(value).reshape(1, 1)
    t = type(value)
    if t is float or t is bool or t is complex or t is int:
        return to_array(value)
    return value


# ------------------------------------------------------------ public entry
def display_value(name: str, value: Any, fmt: str = "short", compact: bool = False) -> str:
    """What MATLAB prints for ``name = value``; ``compact`` gives ``format
    compact`` (the blank lines of ``format loose`` removed)."""
    text = _display_loose(name, value, fmt)
    if compact:
        return "".join(line for line in text.splitlines(keepends=True) if line.strip("\n"))
    return text


def _display_loose(name: str, value: Any, fmt: str) -> str:
    value = _host_array(value)
    t = type(value)
    if t is np.ndarray:
        return _display_array(name, value, fmt)
    if t is CellArray:
        return _display_cell(name, value)
    if t is StructArray:
        return _display_struct(name, value)
    if t is StringArray:
        return _display_strings(name, value)
    if t is SparseMatrix:
        return value.display_block(name, fmt)
    if t is FunctionHandle:
        return f"{name} =\n\n  function_handle with value:\n\n    {value.display_text()}\n\n"
    if isinstance(value, (MObject, MatlabError)):
        return f"{name} = \n\n" + "\n".join(_object_lines(value)) + "\n\n"
    return f"{name} =\n\n    {value!r}\n\n"


def _display_array(name: str, arr: np.ndarray, fmt: str) -> str:
    if arr.size == 0:
        return f"{name} =\n\n{_empty_text(arr)}\n\n"
    if arr.dtype == CHAR_DTYPE:
        if arr.ndim == 2 and arr.shape[0] == 1:
            return f"{name} =\n\n    '{''.join(arr[0, :].tolist())}'\n\n"
        if arr.ndim == 2:
            head = f"  {dims_text(arr.shape)} char array"
            return f"{name} =\n\n{head}\n\n" + "\n".join(_char_lines(arr, True)) + "\n\n"
        out = []
        for page in _pages(arr.shape):
            sub = arr[(slice(None), slice(None)) + page]
            out.append(f"{_page_label(name, page)} =\n\n" + "\n".join(_char_lines(sub, True)) + "\n\n")
        return "".join(out)
    layout = numeric_layout(arr, fmt)
    header = _class_header(arr)
    prefix = f"{name} =\n\n" + (f"{header}\n\n" if header else "")
    if arr.ndim == 2:
        return prefix + "\n".join(_numeric_page_lines(layout, None, arr.shape[1])) + "\n\n"
    out = []  # N-D arrays print their pages only, whatever the class
    for page in _pages(arr.shape):
        body = _numeric_page_lines(layout, page, arr.shape[1])
        out.append(f"{_page_label(name, page)} =\n\n" + "\n".join(body) + "\n\n")
    return "".join(out)


def _display_cell(name: str, cell: CellArray) -> str:
    if cell.data.size == 0:
        return f"{name} =\n\n  {dims_text(cell.shape)} empty cell array\n\n"
    head = f"{name} =\n\n  {dims_text(cell.shape)} cell array\n\n"
    return head + "\n".join(cell_rows(cell)) + "\n\n"


def _display_struct(name: str, s: StructArray) -> str:
    if s.data.size == 1:
        if not s.fields:
            return f"{name} = \n\n  struct with no fields.\n\n"
        lines = struct_field_lines(s.data.reshape(-1)[0], s.fields)
        return f"{name} = \n\n  struct with fields:\n\n" + "\n".join(lines) + "\n\n"
    return f"{name} = \n\n" + _struct_array_text(s) + "\n"


def _struct_array_text(s: StructArray) -> str:
    """``  1×2 struct array with fields:`` block (name lines end with \\n)."""
    empty = "empty " if s.data.size == 0 else ""
    if not s.fields:
        return f"  {dims_text(s.shape)} {empty}struct array with no fields.\n"
    fields = "".join(f"    {f}\n" for f in s.fields)
    return f"  {dims_text(s.shape)} {empty}struct array with fields:\n\n{fields}"


def _string_texts(sa: StringArray) -> np.ndarray:
    out = np.empty(sa.data.shape, dtype=object)
    flat_in = sa.data.reshape(-1)
    flat_out = out.reshape(-1)
    for i, s in enumerate(flat_in):
        flat_out[i] = "<missing>" if s is None else f'"{s}"'
    return out


def _string_rows(sa: StringArray) -> list[str]:
    texts = _string_texts(sa)
    if texts.ndim > 2:
        texts = texts.reshape(texts.shape[0], -1, order="F")
    widths = [max(len(t) for t in texts[:, c]) for c in range(texts.shape[1])]
    return ["    " + "    ".join(texts[r, c].ljust(widths[c]) for c in range(texts.shape[1])).rstrip()
            for r in range(texts.shape[0])]


def _display_strings(name: str, sa: StringArray) -> str:
    if sa.data.size == 1:
        return f"{name} = \n\n    {_string_texts(sa).reshape(-1)[0]}\n\n"
    if sa.data.size == 0:
        return f"{name} = \n\n  {dims_text(sa.shape)} empty string array\n\n"
    head = f"{name} = \n\n  {dims_text(sa.shape)} string array\n\n"
    return head + "\n".join(_string_rows(sa)) + "\n\n"


def _object_lines(obj: Any) -> list[str]:
    if type(obj) is ObjectArray:
        # MATLAB lists the property names of an object array, not values.
        empty = "empty " if obj.data.size == 0 else ""
        names = obj.property_names()
        if not names:
            return [f"  {dims_text(obj.shape)} {empty}{obj.class_name} array with no properties."]
        return [f"  {dims_text(obj.shape)} {empty}{obj.class_name} array with properties:",
                ""] + [f"    {n}" for n in names]
    if isinstance(obj, MatlabError):
        props = {
            "identifier": obj.identifier,
            "message": obj.message,
            "cause": CellArray.empty((0, 0)),
            "stack": StructArray(["file", "name", "line"], np.empty((0, 1), dtype=object)),
            "Correction": np.zeros((0, 0)),
        }
        names = list(props)
        cls = "MException"
    elif hasattr(obj, "display_lines"):
        return obj.display_lines()
    else:
        names = obj.property_names()
        props = {n: obj.get_property(n) for n in names}
        cls = obj.class_name
    lines = [f"  {cls} with properties:", ""]
    lines += struct_field_lines(_as_values(props), names)
    return lines


def _as_values(props: dict[str, Any]) -> dict[str, Any]:
    from matfuse.runtime.values import char_array

    return {k: (char_array(v) if isinstance(v, str) else v) for k, v in props.items()}


# --------------------------------------------------------------------- disp
def disp_text(value: Any, fmt: str = "short") -> str:
    """What ``disp(value)`` prints."""
    value = _host_array(value)
    t = type(value)
    if t is np.ndarray:
        if value.size == 0:
            return ""
        if value.dtype == CHAR_DTYPE:
            return "\n".join(_char_lines(value, False)) + "\n"
        layout = numeric_layout(value, fmt)
        if value.ndim == 2:
            return "\n".join(_numeric_page_lines(layout, None, value.shape[1])) + "\n"
        out = []
        for page in _pages(value.shape):
            body = _numeric_page_lines(layout, page, value.shape[1])
            out.append(f"{_page_label('ans', page)} =\n\n" + "\n".join(body) + "\n\n")
        return "".join(out)
    if t is CellArray:
        if value.data.size == 0:
            return ""
        return "\n".join(cell_rows(value)) + "\n"
    if t is StructArray:
        if value.data.size == 1:
            return "\n".join(struct_field_lines(value.data.reshape(-1)[0], value.fields)) + "\n"
        return _struct_array_text(value)
    if t is StringArray:
        if value.data.size == 1:
            s = value.data.reshape(-1)[0]
            return ("<missing>" if s is None else s) + "\n"
        if value.data.size == 0:
            return ""
        return "\n".join(_string_rows(value)) + "\n"
    if t is FunctionHandle:
        return f"    {value.display_text()}\n"
    if t is SparseMatrix:
        return "\n".join(value.body_lines(fmt)) + "\n"
    if isinstance(value, (MObject, MatlabError)):
        return "\n".join(_object_lines(value)) + "\n"
    return f"{value!r}\n"
