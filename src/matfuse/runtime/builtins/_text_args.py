"""Text arguments of string builtins: char vectors, cellstr and string arrays.

Most string builtins accept a char row vector, a cell array of char vectors,
or a string array, and answer in the same container.  ``TextArg`` holds the
Python strings (column-major) plus what is needed to rebuild that container.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    DeviceValue,
    StringArray,
    char_array,
    class_of,
    is_char,
)


@dataclass(slots=True)
class TextArg:
    kind: str                 # 'char', 'cell' or 'string'
    items: list[str | None]   # column-major; None is a missing string
    shape: tuple[int, ...]

    @property
    def is_scalar(self) -> bool:
        return self.kind == "char" or len(self.items) == 1 and self.kind == "string"


def char_row_text(v: np.ndarray) -> str:
    if v.ndim == 2 and v.shape[0] == 1:
        return "".join(v[0].tolist())         # a row: no column-major reshape
    return "".join(v.reshape(-1, order="F").tolist())


def is_text_like(v: Any) -> bool:
    """char array, cell array of char, or string array."""
    if is_char(v) or isinstance(v, StringArray):
        return True
    if isinstance(v, CellArray):
        return all(is_char(e) and (e.ndim == 2 and e.shape[0] <= 1) for e in v.data.reshape(-1))
    return False


def text_arg(v: Any, fn: str, what: str = "Input") -> TextArg:
    """Parse a text argument or raise MATLAB's error for ``fn``."""
    if isinstance(v, DeviceValue):
        v = v.gather()
    if is_char(v):
        if v.ndim == 2 and v.shape[0] <= 1:
            return TextArg("char", [char_row_text(v)], (1, 1))
        rows = ["".join(v[r, :].tolist()) for r in range(v.shape[0])]
        return TextArg("char", rows, (len(rows), 1))
    if isinstance(v, StringArray):
        return TextArg("string", list(v.data.reshape(-1, order="F")), v.data.shape)
    if isinstance(v, CellArray):
        items: list[str | None] = []
        for e in v.data.reshape(-1, order="F"):
            if isinstance(e, StringArray) and e.data.size == 1:
                items.append(e.data.reshape(-1)[0])
                continue
            if not (is_char(e) and e.ndim == 2 and e.shape[0] <= 1):
                raise MatlabError(f"MATLAB:{fn}:InvalidInput" if fn else "MATLAB:invalidInput",
                                  f"{what} must be a string array, character vector, or cell array of character vectors.")
            items.append(char_row_text(e))
        return TextArg("cell", items, v.data.shape)
    raise MatlabError(f"MATLAB:{fn}:InvalidInput" if fn else "MATLAB:invalidInput",
                      f"{what} must be a string array, character vector, or cell array of character vectors"
                      f" (got {class_of(v)}).")


def make_char(text: str) -> np.ndarray:
    """A char row; the empty text is 1x0 like MATLAB's string functions give."""
    if text == "":
        return np.zeros((1, 0), dtype=CHAR_DTYPE)
    return char_array(text)


def rebuild(arg: TextArg, items: list[str | None]) -> Any:
    """The container ``arg`` came in, holding ``items``."""
    if arg.kind == "char":
        if len(items) == 1:
            return make_char(items[0] or "")
        return CellArray.from_list([make_char(s or "") for s in items], arg.shape)
    if arg.kind == "string":
        data = np.empty(len(items), dtype=object)
        data[:] = items
        return StringArray(data.reshape(arg.shape, order="F"))
    return CellArray.from_list([make_char(s or "") for s in items], arg.shape)


def logical_result(arg: TextArg, values: list[bool]) -> Any:
    """A logical answer shaped like ``arg`` (a bool for a single text)."""
    if arg.kind == "char" or (arg.kind == "string" and len(values) == 1 and arg.shape == (1, 1)):
        return bool(values[0]) if len(values) == 1 else np.array(values, dtype=bool).reshape(-1, 1)
    return np.array(values, dtype=bool).reshape(arg.shape, order="F")


def string_array(items: list[str | None], shape: tuple[int, ...]) -> StringArray:
    data = np.empty(len(items), dtype=object)
    data[:] = items
    return StringArray(data.reshape(shape, order="F"))


def single_text(v: Any, fn: str, what: str = "Input") -> str:
    """One text (char row or string scalar) argument as a Python str."""
    arg = text_arg(v, fn, what)
    if len(arg.items) != 1 or (arg.kind == "cell" and arg.shape != (1, 1)):
        raise MatlabError(f"MATLAB:{fn}:MustBeText",
                          f"{what} must be a character vector or string scalar.")
    return arg.items[0] or ""


def whole_number(v: Any, fn: str, what: str = "Input", minimum: int = 0) -> int:
    """A real integer-valued numeric scalar >= minimum (counts, precisions)."""
    if isinstance(v, DeviceValue):
        v = v.gather()
    ok = type(v) in (float, bool) or (type(v) is np.ndarray and v.dtype.kind in "fiub" and v.size == 1)
    if ok:
        x = float(np.asarray(v).reshape(-1)[0])
        if np.isfinite(x) and x == int(x) and x >= minimum:
            return int(x)
    raise MatlabError(f"MATLAB:{fn}:InvalidInput",
                      f"{what} must be an integer scalar{' >= ' + str(minimum) if minimum else ''}.")


def char_codes_text(v: Any, fn: str) -> str:
    """Text made of the character codes in a real numeric array."""
    if type(v) in (float, bool) or (type(v) is np.ndarray and v.dtype.kind in "fiub"):
        codes = np.asarray(v, dtype=np.float64).reshape(-1, order="F")
        if np.all(np.isfinite(codes)) and np.all(codes >= 0) and np.all(codes < 0x110000):
            return "".join(chr(int(c)) for c in codes)
    raise MatlabError(f"MATLAB:{fn}:InvalidInput",
                      "Inputs must be character arrays, cell arrays of character vectors, or string arrays.")
