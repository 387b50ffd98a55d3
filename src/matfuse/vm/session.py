"""The Python API: ``matfuse.Session``.

    s = matfuse.Session()
    s.eval("x = magic(3);")
    s.get("x")                      # numpy array
    s.set("y", np.ones((2, 2)))
    s.call("max", [3.0, 7.0], nargout=1)
"""

from __future__ import annotations

from typing import Any, TextIO

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime import hints
from matfuse.runtime.values import (
    CHAR_DTYPE, DeviceValue, as_matlab_array, canonical, char_array, to_str,
)
from matfuse.vm.interpreter import Interpreter, interrupt_guard


def to_matlab(value: Any) -> Any:
    """A Python/NumPy value as a MATLAB value (the value model of runtime.values)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, complex):
        return np.array([[value]], dtype=np.complex128)
    if isinstance(value, str):
        return char_array(value)
    if isinstance(value, np.generic):
        return canonical(np.asarray(value).reshape(1, 1))
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "U" and value.dtype != CHAR_DTYPE:
            return char_array("".join(value.reshape(-1).tolist()))
        return canonical(as_matlab_array(np.array(value)))
    if isinstance(value, (list, tuple)):
        return canonical(as_matlab_array(np.array(value, dtype=np.float64)))
    return value


def to_python(value: Any) -> Any:
    """A MATLAB value for Python callers: host arrays, ``str`` for char rows."""
    if isinstance(value, DeviceValue):
        value = value.gather()
    if type(value) is np.ndarray and value.dtype == CHAR_DTYPE and value.ndim == 2 \
            and value.shape[0] <= 1:
        return to_str(value) if value.size else ""
    return value


class Session:
    """A MATLAB session. Output goes to ``stdout`` (default ``sys.stdout``)."""

    def __init__(self, stdout: TextIO | None = None, stderr: TextIO | None = None,
                 options: Any = None):
        self.interp = Interpreter(stdout, stderr)
        self.interp.options = options

    def eval(self, code: str) -> None:
        """Run MATLAB code in the base workspace; raises MatlabError on errors."""
        # Each top-level command sees .m files edited since the last one.
        self.interp.begin_command()
        try:
            interrupt_guard(self.interp.execute, code)
        finally:
            hints.command_finished()

    def run_file(self, path: str) -> None:
        """Run a script (base workspace) or a function file's primary function."""
        try:
            interrupt_guard(self.interp.run_file_command, path)
        finally:
            hints.command_finished()

    def get(self, name: str) -> Any:
        base = self.interp.base
        if name in base.global_names:
            value = self.interp.globals.get(name)
        elif name in base:
            value = base[name]
        else:
            raise MatlabError("MATLAB:UndefinedFunction",
                              f"Unrecognized function or variable '{name}'.")
        return to_python(value)

    def set(self, name: str, value: Any) -> None:
        if not name.isidentifier():
            raise MatlabError("MATLAB:InvalidVariableName", f"Invalid variable name '{name}'.")
        self.interp.base[name] = to_matlab(value)

    def call(self, name: str, *args: Any, nargout: int = 1) -> Any:
        """Call a function by name; one output is returned bare, several as a tuple."""
        interp = self.interp
        values = interrupt_guard(interp.call, name, [to_matlab(a) for a in args], nargout)
        values = [to_python(v) for v in values]
        if nargout <= 1:
            return values[0] if values else None
        return tuple(values)
