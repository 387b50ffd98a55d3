"""Error and warning builtins: error, MException, throw, rethrow, getReport,
lasterr, assert, warning, lastwarn. They need the interpreter (``ctx``)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.printf import format_printf
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import DeviceValue, StructArray, char_array, to_str

_ID_RE = re.compile(r"^[A-Za-z][\w-]*(:[\w-]+)+$")


def looks_like_id(text: str) -> bool:
    """MATLAB's message-identifier shape ``component:mnemonic``."""
    return bool(_ID_RE.match(text))


def _interp(ctx: Any) -> Any:
    """The interpreter behind ``ctx`` (a MATLAB error for stand-in contexts)."""
    interp = getattr(ctx, "interp", None)
    if interp is None:
        raise MatlabError("matfuse:noInterpreter",
                          "This function needs a running MATLAB session.")
    return interp


def _caller_name(ctx: Any) -> str:
    """``Error using NAME`` names the user function that called error()."""
    interp = getattr(ctx, "interp", None)
    if interp is None:
        return ""
    frame = interp.frame
    return frame.name if frame.function is not None else ""


def _fresh(err: MatlabError) -> MatlabError:
    """Forget where ``err`` was raised before (``throw`` starts a new stack)."""
    err.span = None
    err.stack = []
    if hasattr(err, "_vm_frame"):
        del err._vm_frame
    return err


def _id_and_message(args: tuple, fn: str) -> tuple[str, str]:
    """Parse (id?, fmt, args...) the way error/warning/MException do."""
    texts = [a for a in args]
    first = to_str(texts[0]) if is_text(texts[0]) else None
    if first is None:
        raise MatlabError(f"MATLAB:{fn}:invalidInput",
                          "Message must be a character vector or string scalar.")
    if len(texts) >= 2 and looks_like_id(first) and is_text(texts[1]):
        return first, format_printf(to_str(texts[1]), list(texts[2:]))
    if len(texts) == 1:
        return "", first
    return "", format_printf(first, list(texts[1:]))


def _from_struct(s: StructArray) -> MatlabError | None:
    fields = s.data.reshape(-1)[0] if s.data.size else {}
    message = fields.get("message")
    text = to_str(message) if message is not None and is_text(message) else ""
    if not text:
        return None
    ident = fields.get("identifier")
    return MatlabError(to_str(ident) if ident is not None and is_text(ident) else "", text)


@builtin("error", category="lang", nargin=(1, None), nargout=(0, 0), needs_ctx=True)
def error(ctx: Any, *args: Any) -> None:
    """Throw an error: error(msg), error(id, fmt, ...), error(struct), error(ME)."""
    first = args[0]
    if isinstance(first, MatlabError):
        raise _fresh(first)
    if isinstance(first, StructArray):
        err = _from_struct(first)
        if err is None:
            return None
    else:
        ident, message = _id_and_message(args, "error")
        if message == "" and len(args) == 1:
            return None       # error('') does nothing
        err = MatlabError(ident, message)
    err.function_name = _caller_name(ctx)
    raise err


@builtin("MException", category="lang", nargin=(2, None), nargout=(0, 1))
def mexception(ident: Any, fmt: Any, *args: Any) -> MatlabError:
    """Create an MException object (not thrown)."""
    if not is_text(ident) or not is_text(fmt):
        raise MatlabError("MATLAB:MException:invalidInput",
                          "Identifier and message must be character vectors or strings.")
    text_id = to_str(ident)
    if text_id and not looks_like_id(text_id):
        raise MatlabError("MATLAB:MException:invalidIdentifier",
                          f"The identifier '{text_id}' is not valid.")
    return MatlabError(text_id, format_printf(to_str(fmt), list(args)))


def _exception_arg(v: Any, fn: str) -> MatlabError:
    if isinstance(v, MatlabError):
        return v
    if isinstance(v, StructArray):
        err = _from_struct(v)
        if err is not None:
            return err
    raise MatlabError(f"MATLAB:{fn}:invalidInput", "Input must be an MException object.")


@builtin("addCause", category="lang", nargin=(2, 2), nargout=(0, 1))
def addCause(exc: Any, cause: Any) -> MatlabError:
    """MException with cause appended to its cause list: ME = addCause(ME, causeME)."""
    base = _exception_arg(exc, "addCause")
    extra = _exception_arg(cause, "addCause")
    out = MatlabError(base.identifier, base.message, base.span)
    out.stack = list(base.stack)
    out.cause = list(base.cause) + [extra]
    out.function_name = base.function_name
    return out


@builtin("throw", category="lang", nargin=(1, 1), nargout=(0, 0), needs_ctx=True)
def throw(ctx: Any, exc: Any) -> None:
    """Throw an MException from here (new stack)."""
    err = _fresh(_exception_arg(exc, "throw"))
    if err.function_name is None:
        err.function_name = _caller_name(ctx)
    raise err


@builtin("rethrow", category="lang", nargin=(1, 1), nargout=(0, 0))
def rethrow(exc: Any) -> None:
    """Rethrow a caught MException keeping its original stack."""
    err = _exception_arg(exc, "rethrow")
    if err.function_name is None:
        err.function_name = ""
    raise err


@builtin("throwAsCaller", category="lang", nargin=(1, 1), nargout=(0, 0), needs_ctx=True)
def throw_as_caller(ctx: Any, exc: Any) -> None:
    throw(ctx, exc)


@builtin("getReport", category="lang", nargin=(1, None), nargout=(0, 1))
def get_report(exc: Any, *options: Any) -> np.ndarray:
    """The error text MATLAB would print (``Error using f`` + message)."""
    err = _exception_arg(exc, "getReport")
    if err.function_name:
        return char_array(f"Error using {err.function_name}\n{err.message}")
    return char_array(err.message)


@builtin("lasterr", category="lang", nargin=(0, 0), nargout=(0, 2), needs_ctx=True,
         wants_nargout=True)
def lasterr(ctx: Any, nargout: int = 1) -> Any:
    """Message (and identifier) of the last error caught or reported."""
    err = _interp(ctx).last_error
    message = char_array(err.message if err else "")
    if nargout >= 2:
        return message, char_array(err.identifier if err else "")
    return message


def _all_true(cond: Any) -> bool:
    if type(cond) is bool:
        return cond
    if type(cond) is float:
        return cond != 0.0 and cond == cond
    if isinstance(cond, DeviceValue):
        cond = cond.gather()
    arr = cond if type(cond) is np.ndarray else None
    if arr is None or arr.dtype.kind not in "biufc":
        raise MatlabError("MATLAB:assertion:LogicalScalar",
                          "Assertion condition must be a numeric or logical value.")
    return arr.size > 0 and bool(np.all(arr != 0)) and not bool(np.any(arr != arr))


@builtin("assert", category="lang", nargin=(1, None), nargout=(0, 0), needs_ctx=True)
def assert_(ctx: Any, cond: Any, *args: Any) -> None:
    """Throw MATLAB:assertion:failed unless cond is all true."""
    if _all_true(cond):
        return None
    if args:
        ident, message = _id_and_message(args, "assert")
        err = MatlabError(ident, message)
    else:
        err = MatlabError("MATLAB:assertion:failed", "Assertion failed.")
    err.function_name = _caller_name(ctx)
    raise err


def _warning_state(states: dict[str, bool], ident: str) -> str:
    on = states.get(ident, states.get("all", True))
    return "on" if on else "off"


def _state_array(states: dict[str, bool], ident: str) -> StructArray:
    """MATLAB's warning state structure: ``identifier``/``state`` fields, one
    row per warning (``'all'`` first, then every identifier set apart)."""
    if ident == "all":
        idents = ["all"] + [k for k in states if k != "all"]
    else:
        idents = [ident]
    data = np.empty((len(idents), 1), dtype=object)
    for i, name in enumerate(idents):
        data[i, 0] = {"identifier": char_array(name),
                      "state": char_array(_warning_state(states, name))}
    return StructArray(["identifier", "state"], data)


def _restore_states(interp: Any, saved: StructArray) -> None:
    """``warning(w)``: apply a state structure returned by ``warning``."""
    if not {"identifier", "state"} <= set(saved.fields):
        raise MatlabError("MATLAB:warning:invalidStateStructure",
                          "Warning state structure must have 'identifier' and 'state' fields.")
    for element in saved.data.reshape(-1, order="F"):
        ident = to_str(element["identifier"])
        on = to_str(element["state"]).lower() == "on"
        if ident == "all":
            interp.warning_states.clear()
        interp.warning_states[ident] = on


@builtin("warning", category="lang", nargin=(0, None), nargout=(0, 1), needs_ctx=True,
         wants_nargout=True)
def warning(ctx: Any, *args: Any, nargout: int = 0) -> Any:
    """Print ``Warning: msg`` to stderr; ``warning('off'|'on', id)`` toggles
    and ``w = warning(...)`` returns the state before the call as a struct
    array that ``warning(w)`` restores."""
    interp = _interp(ctx)
    if not args:
        return _state_array(interp.warning_states, "all") if nargout else None
    if len(args) == 1 and isinstance(args[0], StructArray):
        _restore_states(interp, args[0])
        return None
    first = to_str(args[0]) if is_text(args[0]) else None
    if first is not None and first.lower() in ("on", "off", "query", "error"):
        ident = to_str(args[1]) if len(args) > 1 and is_text(args[1]) else "all"
        before = _state_array(interp.warning_states, ident)
        if first.lower() in ("on", "off"):
            if ident == "all":
                interp.warning_states.clear()
            interp.warning_states[ident] = first.lower() == "on"
        return before if nargout else None
    ident, message = _id_and_message(args, "warning")
    if not message:
        return None
    states = interp.warning_states
    if states.get(ident, states.get("all", True)) is False:
        return None
    interp.last_warning = (message, ident)
    ctx.write_err(f"Warning: {message}\n")
    return None


@builtin("lastwarn", category="lang", nargin=(0, 2), nargout=(0, 2), needs_ctx=True,
         wants_nargout=True)
def lastwarn(ctx: Any, *args: Any, nargout: int = 1) -> Any:
    message, ident = _interp(ctx).last_warning
    if args:
        _interp(ctx).last_warning = (to_str(args[0]), to_str(args[1]) if len(args) > 1 else "")
    if nargout >= 2:
        return char_array(message), char_array(ident)
    return char_array(message)
