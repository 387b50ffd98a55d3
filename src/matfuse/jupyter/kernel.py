"""The matfuse Jupyter kernel: one MATLAB workspace per kernel.

Each cell runs in the kernel's ``Session``; its output goes to the cell as
it is written; figures made or changed by the cell follow as PNG images;
errors are MATLAB-style (the reply's ``ename`` is the error identifier).
``help NAME`` (or ``NAME?``) opens the help text in the pager; Tab completes
builtins, variables and function files; Shift-Tab shows a builtin's help.
"""

from __future__ import annotations

import re
from typing import Any

from ipykernel.kernelbase import Kernel

from matfuse import __version__
from matfuse.cli.completion import candidates, help_text, word_before
from matfuse.errors import MatlabError
from matfuse.jupyter.figures import changed_figure_pngs, display_data

# ``help NAME``, ``doc NAME`` or ``NAME?``: the help text goes to the pager.
_HELP_COMMAND = re.compile(r"^\s*(?:help|doc)\s+([A-Za-z_][\w.]*)\s*;?\s*$"
                           r"|^\s*([A-Za-z_][\w.]*)\?\s*$")


class KernelOutput:
    """A text stream whose writes become the cell's stream messages."""

    def __init__(self, kernel: "MatfuseKernel", name: str):
        self.kernel = kernel
        self.name = name

    def write(self, text: str) -> int:
        if text and not self.kernel.silent:
            self.kernel.send_response(self.kernel.iopub_socket, "stream",
                                      {"name": self.name, "text": text})
        return len(text)

    def flush(self) -> None:
        """Writes are sent at once."""

    def isatty(self) -> bool:
        return False


class MatfuseKernel(Kernel):
    implementation = "matfuse"
    implementation_version = __version__
    banner = f"matfuse {__version__}: MATLAB language on Python and GPUs"
    language_info = {
        "name": "matlab",
        "version": "R2024b",
        "mimetype": "text/x-matlab",
        "file_extension": ".m",
        "pygments_lexer": "matlab",
        "codemirror_mode": "octave",
    }

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        from matfuse.vm.session import Session

        self.silent = False
        self.matlab = Session(stdout=KernelOutput(self, "stdout"),
                              stderr=KernelOutput(self, "stderr"))

    async def do_execute(self, code: str, silent: bool, store_history: bool = True,
                         user_expressions: Any = None, allow_stdin: bool = False,
                         *, cell_meta: Any = None, cell_id: Any = None) -> dict[str, Any]:
        self.silent = silent
        reply: dict[str, Any] = {"status": "ok", "execution_count": self.execution_count,
                                 "payload": [], "user_expressions": {}}
        asked = _HELP_COMMAND.match(code)
        if asked:
            name = asked.group(1) or asked.group(2)
            text = help_text(self.matlab, name) or f"No help found for {name}.\n"
            reply["payload"].append({"source": "page", "data": {"text/plain": text}, "start": 0})
            return reply
        try:
            self.matlab.eval(code)
        except MatlabError as err:
            self.matlab.interp.last_error = err
            report = err.report().rstrip("\n")
            content = {"ename": err.identifier or "MATLAB:error", "evalue": err.message,
                       "traceback": [report]}
            if not silent:
                self.send_response(self.iopub_socket, "error", content)
            reply = {"status": "error", "execution_count": self.execution_count, **content}
        finally:
            if not silent:
                for png in changed_figure_pngs():
                    self.send_response(self.iopub_socket, "display_data", display_data(png))
        return reply

    async def do_complete(self, code: str, cursor_pos: int) -> dict[str, Any]:
        start, prefix = word_before(code, cursor_pos)
        matches = candidates(self.matlab, prefix) if prefix else []
        return {"status": "ok", "matches": matches, "cursor_start": start,
                "cursor_end": cursor_pos, "metadata": {}}

    async def do_inspect(self, code: str, cursor_pos: int, detail_level: int = 0,
                         omit_sections: Any = ()) -> dict[str, Any]:
        end = cursor_pos
        while end < len(code) and (code[end].isalnum() or code[end] == "_"):
            end += 1
        _, name = word_before(code, end)
        text = help_text(self.matlab, name) if name else ""
        return {"status": "ok", "found": bool(text),
                "data": {"text/plain": text} if text else {}, "metadata": {}}

    async def do_is_complete(self, code: str) -> dict[str, Any]:
        from matfuse.cli.repl import needs_more

        return {"status": "incomplete" if needs_more(code) else "complete", "indent": ""}

    async def do_shutdown(self, restart: bool) -> dict[str, Any]:
        import sys

        if "matfuse.graphics.root" in sys.modules:
            from matfuse.graphics.root import ROOT

            ROOT.close_all()
        return {"status": "ok", "restart": restart}
