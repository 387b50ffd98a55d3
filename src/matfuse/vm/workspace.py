"""Workspaces: one ``Frame`` per function call (or the base workspace).

A frame *is* the variable dict (a ``dict`` subclass) so compiled closures
read variables with one C-level dict lookup; call metadata lives in slots.
"""

from __future__ import annotations

from typing import Any

from matfuse.errors import MatlabError, StackFrame, Span, from_python_exception


class Frame(dict):
    """Variables of one workspace plus the call's metadata."""

    __slots__ = ("interp", "name", "file", "nargin", "nargout", "scope",
                 "global_names", "function", "parent", "caller", "input_names")

    def __init__(self, interp: Any, name: str, file: str | None, scope: Any,
                 nargin: int = 0, nargout: int = 0, function: Any = None):
        super().__init__()
        self.interp = interp
        self.name = name
        self.file = file
        self.scope = scope
        self.nargin = nargin
        self.nargout = nargout
        # Names made global in this workspace (``global x`` seen at run time).
        self.global_names: set[str] = set()
        self.function = function
        # The parent function's frame, for a nested function's shared variables.
        self.parent: "Frame | None" = None
        # The calling workspace (set on entry; evalin/assignin 'caller').
        self.caller: "Frame | None" = None
        # Variable names of the arguments where the caller knows them
        # (``inputname``); None when unknown.
        self.input_names: list[str] | None = None

    def __repr__(self) -> str:
        return f"Frame({self.name!r}, vars={sorted(self)})"

    def __hash__(self) -> int:      # frames are identities, not values
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other


def annotate_error(err: MatlabError, frame: Frame, span: Span | None) -> None:
    """Give ``err`` its span (innermost wins) and one stack entry per frame."""
    if err.span is None and span is not None:
        err.span = span
    if getattr(err, "_vm_frame", None) is not frame:
        err._vm_frame = frame  # type: ignore[attr-defined]
        line = span.line if span is not None else 0
        err.stack.append(StackFrame(frame.name, frame.file, line))


def internal_error(exc: BaseException, frame: Frame, span: Span | None) -> MatlabError:
    """A Python exception from runtime code, as a MATLAB error (no traceback)."""
    err = from_python_exception(exc)
    annotate_error(err, frame, span)
    return err
