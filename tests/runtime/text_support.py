"""Helpers for the display/strings/cells tests: a minimal call context and
short constructors for MATLAB values."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError

from matfuse.runtime.dispatcher import call_builtin
import importlib

from matfuse.runtime.registry import lookup

# Only this area's modules: the tests must not depend on other areas' work.
_MODULES = ("output", "number_text", "strings", "string_compare", "text_conversions", "regexp",
            "cells_structs", "function_apply")


def load_all() -> None:
    for name in _MODULES:
        importlib.import_module(f"matfuse.runtime.builtins.{name}")
from matfuse.runtime.values import CellArray, FunctionHandle, StringArray, char_array, to_str


class FakeContext:
    """Collects ctx.write output; calls handles/builtins by name."""

    display_format = "short"

    def __init__(self) -> None:
        self.out: list[str] = []
        self.err: list[str] = []

    def write(self, text: str) -> None:
        self.out.append(text)

    def write_err(self, text: str) -> None:
        self.err.append(text)

    @property
    def text(self) -> str:
        return "".join(self.out)

    def call(self, fn: Any, args: list[Any], nargout: int) -> list[Any]:
        if isinstance(fn, FunctionHandle) and fn.fn is not None:
            return fn.fn(args, nargout)
        name = fn.name if isinstance(fn, FunctionHandle) else fn
        b = lookup(name)
        if b is None:
            raise MatlabError("MATLAB:UndefinedFunction", f"Undefined function '{name}'.")
        return call_builtin(b, args, nargout, self)

    def function_caller(self, fn: Any) -> Any:
        return lambda args, nargout: self.call(fn, args, nargout)


def session_context() -> Any:
    """A real call context (a fresh interpreter whose output is captured), for
    builtins that evaluate MATLAB text (str2num, cellfun on names...)."""
    import io

    from matfuse.vm.session import Session

    return Session(stdout=io.StringIO(), stderr=io.StringIO()).interp


def call(name: str, *args: Any, nargout: int = 1, ctx: Any = None) -> Any:
    """Call builtin ``name``; one output as a value, several as a list."""
    load_all()
    b = lookup(name)
    assert b is not None, name
    out = call_builtin(b, list(args), nargout, ctx or FakeContext())
    if nargout <= 1:
        return out[0] if out else None
    return out


def s(text: str) -> np.ndarray:
    """A char row vector."""
    return char_array(text)


def strs(*texts: str) -> StringArray:
    data = np.empty((1, len(texts)), dtype=object)
    data[0, :] = list(texts)
    return StringArray(data)


def cellrow(*values: Any) -> CellArray:
    return CellArray.from_list([char_array(v) if isinstance(v, str) else v for v in values])


def text(v: Any) -> str:
    return to_str(v) if v.size else ""


def handle(py_fn, nout: int = 1) -> FunctionHandle:
    """An anonymous-function handle backed by a Python callable."""
    def run(args: list[Any], nargout: int) -> list[Any]:
        result = py_fn(*args)
        return list(result) if isinstance(result, tuple) else [result]

    return FunctionHandle(fn=run, text="@(x)...")
