"""Other workspaces and captured output: assignin evalin evalc whos input.

``'caller'`` is the workspace of the function that called the function
using assignin/evalin (``Frame.caller``, set when a frame is entered);
``'base'`` is the command window's. ``evalc`` runs text with the command
window output captured into a char vector. ``whos`` reports each variable's
size, bytes and class; bytes of numeric, char and logical arrays are exact
(element size times count), those of cell, struct and other containers are
the sum of their contents plus MATLAB's per-element header of 112 bytes.
"""

from __future__ import annotations

import io
import sys
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.builtins._text_args import make_char
from matfuse.runtime.registry import builtin
from matfuse.runtime.sparse_matrix import SparseMatrix
from matfuse.runtime.values import (
    CellArray,
    DeviceValue,
    StringArray,
    StructArray,
    char_array,
    class_of,
    dtype_for_class,
    shape_of,
    to_str,
)

_CONTAINER_HEADER_BYTES = 112


def _workspace(ctx: Any, which: Any, fn: str) -> Any:
    interp = ctx.interp
    name = to_str(which).lower() if is_text(which) else ""
    if name == "base":
        return interp.base
    if name == "caller":
        frame = interp.frame
        return frame.caller if frame.caller is not None else interp.base
    raise MatlabError(f"MATLAB:{fn}:invalidContext",
                      "The first argument must be 'base' or 'caller'.")


@builtin("assignin", category="lang", nargin=(3, 3), nargout=(0, 0), needs_ctx=True)
def assignin(ctx: Any, which: Any, name: Any, value: Any) -> None:
    """Assign a variable in the 'base' or 'caller' workspace."""
    frame = _workspace(ctx, which, "assignin")
    var = to_str(name) if is_text(name) else ""
    if not var.isidentifier() or not var[0].isalpha():
        raise MatlabError("MATLAB:assignin:invalidVariable",
                          f"Invalid variable name \"{var}\" in ASSIGNIN.")
    if var in frame.global_names:
        ctx.interp.globals[var] = value
    else:
        frame[var] = value
    return None


def _in_frame(ctx: Any, frame: Any, source: str, nargout: int) -> list:
    interp = ctx.interp
    saved = interp.frame
    interp.frame = frame
    try:
        return interp.eval_string(source, nargout)
    finally:
        interp.frame = saved


def _results(values: list, nargout: int) -> Any:
    if nargout <= 1:
        return values[0] if values else None
    return tuple(values)


@builtin("evalin", category="lang", nargin=(2, 3), nargout=(0, None), needs_ctx=True,
         wants_nargout=True)
def evalin(ctx: Any, which: Any, expression: Any, catch_expression: Any = None,
           nargout: int = 0) -> Any:
    """Evaluate text in the 'base' or 'caller' workspace (evalin(ws, try, catch))."""
    frame = _workspace(ctx, which, "evalin")
    source = to_str(expression)
    if catch_expression is None:
        return _results(_in_frame(ctx, frame, source, nargout), nargout)
    try:
        return _results(_in_frame(ctx, frame, source, nargout), nargout)
    except MatlabError as err:
        ctx.interp.last_error = err
        return _results(_in_frame(ctx, frame, to_str(catch_expression), nargout), nargout)


@builtin("evalc", category="lang", nargin=(1, 2), nargout=(0, None), needs_ctx=True,
         wants_nargout=True)
def evalc(ctx: Any, expression: Any, catch_expression: Any = None, nargout: int = 1) -> Any:
    """Evaluate text and return what it displayed: T = evalc(expr);
    [T, a, b] = evalc(expr) also returns the expression's outputs."""
    interp = ctx.interp
    captured = io.StringIO()
    saved = interp.out
    interp.out = captured
    outs = max(nargout - 1, 0)
    try:
        try:
            values = interp.eval_string(to_str(expression), outs)
        except MatlabError as err:
            if catch_expression is None:
                raise
            interp.last_error = err
            values = interp.eval_string(to_str(catch_expression), outs)
    finally:
        interp.out = saved
    text = make_char(captured.getvalue())
    if nargout <= 1:
        return text
    return (text,) + tuple(values[:outs])


def value_bytes(v: Any) -> int:
    """Bytes whos reports for a value."""
    if isinstance(v, CellArray):
        return sum(_CONTAINER_HEADER_BYTES + value_bytes(e) for e in v.data.reshape(-1))
    if isinstance(v, StructArray):
        return sum(_CONTAINER_HEADER_BYTES + value_bytes(e[f]) for e in v.data.reshape(-1) for f in v.fields)
    if isinstance(v, StringArray):
        return sum(2 * len(s or "") + 104 for s in v.data.reshape(-1))
    if type(v) is SparseMatrix:
        return v.storage_bytes()
    if isinstance(v, DeviceValue):
        item = dtype_for_class(v.underlying_class(), v.is_complex()).itemsize
        return int(item * np.prod(v.shape))
    if type(v) is float:
        return 8
    if type(v) is bool:
        return 1
    if type(v) is complex:
        return 16
    if isinstance(v, np.ndarray):
        if v.dtype.kind == "U":
            return 2 * v.size
        return int(v.dtype.itemsize * v.size)
    return 0


@builtin("whos", category="lang", nargin=(0, None), nargout=(0, 1), needs_ctx=True,
         wants_nargout=True)
def whos(ctx: Any, *patterns: Any, nargout: int = 0) -> Any:
    """Variables of the current workspace with size, bytes and class."""
    import fnmatch
    interp = ctx.interp
    frame = interp.frame
    names = ctx.variable_names()
    if patterns:
        pats = [to_str(p) for p in patterns]
        names = [n for n in names if any(fnmatch.fnmatchcase(n, p) for p in pats)]
    rows = []
    for name in names:
        value = interp.globals.get(name) if name in frame.global_names else frame.get(name)
        size = "x".join(str(n) for n in shape_of(value))
        attrs = []
        if name in frame.global_names:
            attrs.append("global")
        if type(value) is SparseMatrix:
            attrs.append("sparse")
        if isinstance(value, np.ndarray) and value.dtype.kind == "c" or type(value) is complex \
                or (type(value) is SparseMatrix and value.is_complex):
            attrs.append("complex")
        rows.append((name, size, value_bytes(value), class_of(value), " ".join(attrs), value))
    if nargout > 0:
        entries = []
        for name, _size, nbytes, cls, attrs, value in rows:
            entries.append({
                "name": char_array(name),
                "size": np.array([list(shape_of(value))], dtype=np.float64),
                "bytes": float(nbytes), "class": char_array(cls),
                "global": name in frame.global_names, "sparse": type(value) is SparseMatrix,
                "complex": "complex" in attrs, "nesting": StructArray.scalar({
                    "function": char_array(frame.name), "level": 1.0}),
                "persistent": False})
        fields = ["name", "size", "bytes", "class", "global", "sparse", "complex", "nesting", "persistent"]
        data = np.empty((len(entries), 1), dtype=object)
        for k, e in enumerate(entries):
            data[k, 0] = e
        return StructArray(fields, data)
    if not rows:
        return None
    width = max(4, max(len(r[0]) for r in rows))
    lines = [f"  {'Name':<{width}}      {'Size':<16}{'Bytes':>5}  {'Class':<10}Attributes", ""]
    for name, size, nbytes, cls, attrs, _ in rows:
        lines.append(f"  {name:<{width}}      {size:<16}{nbytes:>5}  {cls:<10}{attrs}")
    ctx.write("\n".join(lines) + "\n\n")
    return None


@builtin("input", category="lang", nargin=(1, 2), nargout=(0, 1), needs_ctx=True)
def input_(ctx: Any, prompt: Any, mode: Any = None) -> Any:
    """Show a prompt and read a line from standard input: input(prompt)
    evaluates it as an expression ([] for an empty line); input(prompt, 's')
    returns the text."""
    text_mode = mode is not None and is_text(mode) and to_str(mode) == "s"
    if mode is not None and not text_mode:
        raise MatlabError("MATLAB:input:InvalidOption", "The second argument to INPUT must be 's'.")
    ctx.write(to_str(prompt) if is_text(prompt) else "")
    line = sys.stdin.readline()
    if line == "":
        raise MatlabError("MATLAB:input:EndOfInput", "End of input reached while reading a response.")
    line = line.rstrip("\r\n")
    if text_mode:
        return make_char(line)
    if line.strip() == "":
        return np.zeros((0, 0))
    values = ctx.interp.eval_string(line, 1)
    return values[0] if values else np.zeros((0, 0))
