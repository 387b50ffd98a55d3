"""Command-window output builtins: disp, display, fprintf, sprintf."""

from __future__ import annotations

import importlib
import math
import sys
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.display import disp_text, display_value
from matfuse.runtime.printf import format_printf
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import (
    CHAR_DTYPE,
    StringArray,
    char_array,
    is_char,
    to_array,
    to_str,
)


def _format_of(ctx: Any) -> str:
    fmt = getattr(ctx, "display_format", "short")
    return fmt if fmt in ("short", "long") else "short"


@builtin("disp", category="output", nargin=(1, 1), nargout=(0, 0), needs_ctx=True, sink=True)
def disp(ctx: Any, value: Any) -> None:
    """Display value without printing its name."""
    ctx.write(disp_text(value, _format_of(ctx)))


@builtin("display", category="output", nargin=(1, 2), nargout=(0, 0), needs_ctx=True, sink=True)
def display(ctx: Any, value: Any, name: Any = None) -> None:
    """Display value as ``name = value``; the value of an expression (no
    name: ``display(x)`` of a variable is labelled by the caller) is shown
    without the ``ans =`` line, as MATLAB documents."""
    compact = getattr(ctx, "display_spacing", "loose") == "compact"
    if name is not None:
        ctx.write(display_value(to_str(name), value, _format_of(ctx), compact))
        return
    text = display_value("ans", value, _format_of(ctx), compact)
    ctx.write(text.split("\n", 1)[1] if "\n" in text else text)


# Format rows by their code units: loops print with the same few formats.
_FORMAT_TEXTS: dict[bytes, str] = {}
_FORMAT_TEXTS_LIMIT = 256


def _format_text(fmt: Any, fn: str) -> str:
    if is_char(fmt):
        if fmt.ndim == 2 and fmt.shape[0] == 1:
            key = fmt.tobytes()
            text = _FORMAT_TEXTS.get(key)
            if text is None:
                text = "".join(fmt[0].tolist())
                if len(_FORMAT_TEXTS) >= _FORMAT_TEXTS_LIMIT:
                    _FORMAT_TEXTS.clear()
                _FORMAT_TEXTS[key] = text
            return text
        return "".join(fmt.reshape(-1, order="F").tolist())
    if isinstance(fmt, StringArray) and fmt.data.size == 1:
        return to_str(fmt)
    raise MatlabError(f"MATLAB:{fn}:invalidFormat" if fn == "sprintf" else "MATLAB:printf:invalidFormat",
                      "Format must be a character vector or string scalar." if fn == "sprintf"
                      else "Invalid format.")


@builtin("sprintf", category="output", nargin=(1, None), nargout=(0, 2), wants_nargout=True)
def sprintf(fmt: Any, *args: Any, nargout: int = 1) -> Any:
    """Format data into a character vector (a string when fmt is a string)."""
    text = format_printf(_format_text(fmt, "sprintf"), list(args))
    if isinstance(fmt, StringArray):
        result: Any = StringArray.scalar(text)
    elif text == "":
        result = _empty_row()
    else:
        result = char_array(text)
    if nargout >= 2:
        # [str, errmsg] = sprintf(...): formatting errors raise, so errmsg is ''.
        return result, _empty_row()
    return result


def _empty_row() -> Any:
    return np.zeros((1, 0), dtype=CHAR_DTYPE)


def _is_fid(v: Any) -> bool:
    if is_text(v):
        return False
    if type(v) is float:
        return True
    if not isinstance(v, np.ndarray):
        return False
    return v.size == 1 and v.dtype.kind in "fiub"


def write_to_fid(ctx: Any, fid: int, text: str) -> None:
    """Route text to stdout (1), stderr (2) or an open file (>= 3)."""
    if fid == 1:
        ctx.write(text)
    elif fid == 2:
        if hasattr(ctx, "write_err"):
            ctx.write_err(text)
        else:
            sys.stderr.write(text)
    elif fid >= 3:
        try:
            files = importlib.import_module("matfuse.runtime.builtins.files")
        except ModuleNotFoundError:
            files = None
        if files is None or not hasattr(files, "write_fid"):
            raise MatlabError("MATLAB:badfid_mx", "Invalid file identifier. Use fopen to generate a valid file identifier.")
        files.write_fid(fid, text)
    else:
        raise MatlabError("MATLAB:badfid_mx", "Invalid file identifier. Use fopen to generate a valid file identifier.")


@builtin("fprintf", category="output", nargin=(1, None), nargout=(0, 1), needs_ctx=True,
         wants_nargout=True, sink=True)
def fprintf(ctx: Any, *args: Any, nargout: int = 0) -> Any:
    """Write formatted text to the command window or a file."""
    fid = 1
    rest = list(args)
    if _is_fid(rest[0]):
        value = to_array(rest[0]).reshape(-1)[0]
        if not math.isfinite(float(value)) or float(value) != int(float(value)):
            raise MatlabError("MATLAB:badfid_mx", "Invalid file identifier. Use fopen to generate a valid file identifier.")
        fid = int(float(value))
        rest = rest[1:]
        if not rest:
            raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
    text = format_printf(_format_text(rest[0], "fprintf"), rest[1:])
    write_to_fid(ctx, fid, text)
    if nargout >= 1:
        return float(len(text.encode("utf-8")))
    return None
