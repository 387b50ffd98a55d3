"""The Python API: ``matfuse.Session``.

    s = matfuse.Session()
    s.eval("x = magic(3);")
    s.get("x")                      # numpy array (a copy)
    s.set("y", np.ones((2, 2)))
    s.set("cfg", {"n": 3, "name": "run"})   # a struct
    s.call("max", [3.0, 7.0], nargout=1)

    matfuse.eval("x + 1;", x=2)           # 3.0: one-liners in a fresh session

Values are converted both ways by ``matfuse.vm.convert`` (structs <-> dicts,
cells <-> lists, char/strings <-> str, classes kept); ``get`` never returns
memory shared with the workspace.
"""

from __future__ import annotations

import re
from typing import Any, TextIO

from matfuse.errors import MatlabError
from matfuse.runtime import hints
from matfuse.runtime._matrixops import routed_warnings
from matfuse.runtime.values import char_array
from matfuse.vm.convert import to_matlab, to_python
from matfuse.vm.interpreter import Interpreter, interrupt_guard
from matfuse.vm.stack_runway import run_on_runway


_VARIABLE = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,62}\Z")


class Session:
    """A MATLAB session. Output goes to ``stdout`` (default ``sys.stdout``)."""

    def __init__(self, stdout: TextIO | None = None, stderr: TextIO | None = None,
                 options: Any = None):
        self.interp = Interpreter(stdout, stderr)
        self.interp.options = options

    def eval(self, code: str) -> None:
        """Run MATLAB code in the base workspace; raises MatlabError on errors."""
        # Each top-level command sees .m files edited since the last one.
        # Commands (and file runs) go on a stack runway (vm/stack_runway.py):
        # their MATLAB calls allocate no Python frame memory going deeper.
        self.interp.begin_command()
        try:
            with routed_warnings(self.interp.runtime_warning):
                interrupt_guard(run_on_runway, self.interp.execute, code)
        finally:
            hints.command_finished()

    def run_file(self, path: str, args: list[str] | None = None) -> None:
        """Run a script (base workspace) or a function file's primary
        function; ``args`` (strings) are passed to the function as char
        vectors, as MATLAB passes command-line arguments to a deployed
        application.  A script takes no arguments."""
        try:
            with routed_warnings(self.interp.runtime_warning):
                if not args:
                    interrupt_guard(run_on_runway, self.interp.run_file_command, path)
                    return
                interrupt_guard(run_on_runway, self._run_with_arguments, path,
                                [char_array(a) for a in args])
        finally:
            hints.command_finished()

    def _run_with_arguments(self, path: str, args: list) -> None:
        interp = self.interp
        interp.begin_command()
        try:
            scope = interp.functions.load_file(path)
        except (FileNotFoundError, IsADirectoryError):
            raise MatlabError("MATLAB:run:FileNotFound", f"{path} not found.") from None
        if scope.primary is None:
            raise MatlabError("MATLAB:TooManyInputs", "Too many input arguments.")
        interp.invoke(scope.primary, args, 0)

    def get(self, name: str) -> Any:
        """A variable of the base workspace, converted (a copy)."""
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
        """Create or overwrite a base-workspace variable from a Python value
        (TypeError when it has no MATLAB equivalent)."""
        if not _VARIABLE.match(name):
            raise MatlabError("MATLAB:InvalidVariableName", f"Invalid variable name '{name}'.")
        self.interp.base[name] = to_matlab(value)

    def call(self, name: str, *args: Any, nargout: int = 1) -> Any:
        """Call a function by name; one output is returned bare, several as a tuple."""
        interp = self.interp
        with routed_warnings(interp.runtime_warning):
            values = interrupt_guard(interp.call, name, [to_matlab(a) for a in args], nargout)
        values = [to_python(v) for v in values]
        if nargout <= 1:
            return values[0] if values else None
        return tuple(values)


def eval_code(code: str, **variables: Any) -> Any:
    """``matfuse.eval``: run ``code`` in a fresh session after setting
    ``variables``; returns ``ans`` converted when the code set it (an
    expression statement), else None.  Output is printed as MATLAB would."""
    session = Session()
    for name, value in variables.items():
        session.set(name, value)
    session.eval(code)
    if "ans" in session.interp.base:
        return session.get("ans")
    return None
