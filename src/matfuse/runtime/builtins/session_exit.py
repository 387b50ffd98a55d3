"""``exit`` / ``quit``: end the session with a process exit status.

``SessionExit`` derives from ``SystemExit`` so no ``try/catch`` of MATLAB
code stops it and the CLI process ends with the requested status.
"""

from __future__ import annotations

from typing import Any

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text, text_arg
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import to_array


class SessionExit(SystemExit):
    """Raised by ``exit``/``quit``; ``code`` is the process exit status."""


def _status(value: Any) -> int:
    arr = to_array(value)
    if arr.size != 1 or arr.dtype.kind not in "fiub":
        raise MatlabError("MATLAB:quit:invalidInput",
                          "Exit code must be a scalar integer value.")
    code = float(arr.reshape(-1)[0].real)
    if code != int(code):
        raise MatlabError("MATLAB:quit:invalidInput",
                          "Exit code must be a scalar integer value.")
    return int(code)


@builtin("exit", category="lang", nargin=(0, 2), nargout=(0, 0), needs_ctx=True,
         aliases=("quit",))
def exit_session(ctx: Any, *args: Any) -> None:
    """Terminate the session: ``exit``, ``exit(code)``, ``exit('force')``,
    ``exit(code, 'force')``; the process exit status is ``code`` (default 0)."""
    code = 0
    for arg in args:
        if is_text(arg):
            option = text_arg(arg, "exit", "option").lower()
            if option not in ("force", "cancel"):
                raise MatlabError("MATLAB:quit:invalidInput",
                                  f"Invalid option '{option}'. Valid options are "
                                  f"'force' and 'cancel'.")
        else:
            code = _status(arg)
    out = getattr(ctx, "out", None)
    if out is not None:
        out.flush()
    raise SessionExit(code)
