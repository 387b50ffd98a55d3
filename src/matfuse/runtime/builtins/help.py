"""help and doc: text from the builtin declarations and function files
(see ``matfuse.runtime.help_text``)."""

from __future__ import annotations

from typing import Any

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.help_text import doc_text, help_text
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import char_array, to_str


def _topic(fn: str, args: tuple[Any, ...]) -> str | None:
    if not args:
        return None
    if len(args) > 1 or not is_text(args[0]):
        raise MatlabError(f"MATLAB:{fn}:invalidInput", f"Input to {fn} must be a single name.")
    return to_str(args[0])


def _finder(ctx: Any) -> Any:
    interp = getattr(ctx, "interp", None)
    functions = getattr(interp, "functions", None)
    if functions is None:
        return None
    return lambda name: functions.find_file(name, None)


@builtin("help", category="environment", nargin=(0, 1), nargout=(0, 1), needs_ctx=True,
         wants_nargout=True)
def help_(ctx: Any, *args: Any, nargout: int = 0) -> Any:
    """Help for a function: help name prints its description (a function
    file's leading comment block); help alone lists the topics;
    txt = help(name) returns the text."""
    text = help_text(_topic("help", args), _finder(ctx))
    if nargout:
        return char_array(text)
    ctx.write(text)
    return None


@builtin("doc", category="environment", nargin=(0, 1), nargout=(0, 0), needs_ctx=True)
def doc(ctx: Any, *args: Any) -> Any:
    """Documentation for a function: the help text plus the builtin's
    category, argument counts and GPU support (printed; no browser)."""
    ctx.write(doc_text(_topic("doc", args), _finder(ctx)))
    return None
