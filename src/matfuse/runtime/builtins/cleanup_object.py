"""onCleanup: run a function when the object is destroyed.

``c = onCleanup(@() fclose(fid))``: the function runs when the last
reference to the object goes away (the variable is cleared or overwritten,
or the function holding it returns, normally or by an error). The object is
reference counted like MATLAB's handle objects; an error raised by the
cleanup function is reported as a warning, never propagated (as MATLAB does).
"""

from __future__ import annotations

from typing import Any

from matfuse.errors import MatlabError
from matfuse.runtime._matrixops import emit_warning
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import FunctionHandle, MObject


class CleanupObject(MObject):
    """An onCleanup object; runs ``task`` once, at destruction."""

    class_name = "onCleanup"

    def __init__(self, interp: Any, task: FunctionHandle):
        self._interp = interp
        self.task = task
        self._done = False

    def get_property(self, name: str) -> Any:
        if name == "task":
            return self.task
        return super().get_property(name)

    def property_names(self) -> list[str]:
        return ["task"]

    def run(self) -> None:
        if self._done:
            return
        self._done = True
        try:
            self._interp.call(self.task, [], 0)
        except MatlabError as err:
            emit_warning("MATLAB:onCleanup:ErrorInCleanup",
                         f"The following error was caught while executing 'onCleanup' class destructor:\n"
                         f"{err.message}")

    def __del__(self) -> None:
        self.run()


@builtin("onCleanup", category="lang", nargin=(1, 1), needs_ctx=True)
def onCleanup(ctx: Any, task: Any) -> Any:
    """Object that calls task() when it is destroyed (cleared, overwritten or
    going out of scope)."""
    if not isinstance(task, FunctionHandle):
        raise MatlabError("MATLAB:onCleanup:InvalidInput", "Input must be a function handle.")
    return CleanupObject(ctx.interp, task)
