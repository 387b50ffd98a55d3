"""Call plans: how one user function or anonymous function is entered.

What a call needs that does not change from one call to the next (parameter
names, output names, the body's runner, the function's name, file and scope)
is read once, when the plan is made, into the closure of the plan; a call
then checks its argument counts, builds the workspace, binds the arguments,
runs the body and collects the outputs without looking anything up again.

``function_plan(cf)``: the constants ``Interpreter.call_function`` reads
for a function with no parent workspace (nested functions, constructors
with a preset output and calls that record ``inputname`` take its general
path); the call itself is inlined there, one Python frame less per MATLAB
call. ``anonymous_call`` builds the callable of an anonymous function
handle.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

from matfuse.errors import MatlabError
from matfuse.runtime.values import CellArray
from matfuse.vm.workspace import Frame

#: MATLAB's default recursion limit (``MATLAB:recursionLimit``).
RECURSION_LIMIT = 500

_new_dict = dict.__new__
_MISSING = object()


def new_frame(interp: Any, name: str, file: str | None, scope: Any, nargin: int,
              nargout: int, function: Any) -> Frame:
    """A workspace, as ``Frame(...)`` builds it, without the Python-level
    ``__init__`` call (the frame of every call is made here)."""
    fr = _new_dict(Frame)
    fr.interp = interp
    fr.name = name
    fr.file = file
    fr.scope = scope
    fr.nargin = nargin
    fr.nargout = nargout
    fr.global_names = set()
    fr.function = function
    fr.parent = None
    fr.caller = None
    fr.input_names = None
    return fr


def recursion_limit_error() -> MatlabError:
    return MatlabError("MATLAB:recursionLimit",
                       f"Maximum recursion limit of {RECURSION_LIMIT} reached.")


def too_many_inputs(name: str | None) -> MatlabError:
    err = MatlabError("MATLAB:TooManyInputs", "Too many input arguments.")
    err.function_name = name
    return err


def too_many_outputs(name: str | None) -> MatlabError:
    err = MatlabError("MATLAB:TooManyOutputs", "Too many output arguments.")
    err.function_name = name
    return err


def unassigned_output(cf: Any, name: str) -> MatlabError:
    err = MatlabError(
        "MATLAB:unassignedOutputs",
        f'Output argument "{name}" (and possibly others) not assigned a value in the '
        f'execution with "{cf.name}" function.')
    err.function_name = cf.name
    return err


def collect_outputs(cf: Any, fr: Frame, nargout: int) -> list:
    """The values of ``cf``'s outputs after its body ran in ``fr``: as many
    as ``nargout`` asks (at least one where assigned), ``varargout`` last."""
    wanted = max(nargout, 1)
    out: list = []
    for i, name in enumerate(cf.outputs):
        if i >= wanted:
            return out
        if name in fr:
            out.append(fr[name])
            continue
        if i < nargout or (nargout == 0 and i > 0):
            raise unassigned_output(cf, name)
        return out
    if cf.varargout and len(out) < wanted:
        extra = fr.get("varargout")
        need = wanted - len(out)
        values = list(extra.data.reshape(-1, order="F")) if extra is not None and hasattr(
            extra, "data") else []
        if len(values) < need and nargout > len(out):
            raise unassigned_output(cf, "varargout")
        out.extend(values[:need])
    return out


class FunctionPlan(NamedTuple):
    """What every call of one function reads (``function_plan``)."""

    nparams: int
    varargin: bool
    max_out: int                 # -1: varargout (any count)
    params: tuple[str, ...]
    first: str | None            # bound alone when the call has one argument
    single_output: str | None    # the one output (no varargout)
    no_outputs: bool
    run: Callable[[Frame], Any]  # the body's runner
    name: str
    file: str | None
    scope: Any


def function_plan(cf: Any) -> FunctionPlan:
    """The plan of ``cf``, a compiled function (read when it is first
    called: its body, argument checks included, is complete by then)."""
    varargin = cf.varargin
    params = tuple(cf.params)
    outputs = cf.outputs
    return FunctionPlan(
        nparams=len(params), varargin=varargin,
        max_out=-1 if cf.varargout else len(outputs), params=params,
        first=params[0] if params and not varargin else None,
        single_output=outputs[0] if len(outputs) == 1 and not cf.varargout else None,
        no_outputs=not outputs and not cf.varargout,
        run=cf.body.run, name=cf.name, file=cf.file, scope=cf.scope)


def anonymous_call(interp: Any, captured: dict, params: list[str], body: Callable,
                   value: Callable | None, text: str, scope: Any) -> Callable[[list, int], list]:
    """The callable of ``@(params) body`` (``FunctionHandle.fn``): a fresh
    workspace holding the captured values and the arguments; the body's
    values are returned. ``value``: the body as a one-value closure when
    it cannot yield a list (not a call, an index or a field): it is called
    directly, one Python frame less per call."""
    varargin = bool(params) and params[-1] == "varargin"
    fixed = tuple(params[:-1] if varargin else params)
    nfixed = len(fixed)
    first = fixed[0] if nfixed >= 1 and not varargin else None

    def anonymous(args: list, nargout: int) -> list:
        nargs = len(args)
        if nargs > nfixed and not varargin:
            raise MatlabError("MATLAB:TooManyInputs", "Too many input arguments.")
        fr = _new_dict(Frame)
        fr.interp = interp
        fr.name = text
        fr.file = None
        fr.scope = scope
        fr.nargin = nargs
        fr.nargout = nargout
        fr.global_names = set()
        fr.function = None
        fr.parent = None
        fr.input_names = None
        if captured:
            fr.update(captured)
        if nargs == 1 and first is not None:
            fr[first] = args[0]
        else:
            if varargin:
                fr["varargin"] = CellArray.from_list(list(args[nfixed:]))
            for p, a in zip(fixed, args):
                fr[p] = a
        if interp.depth >= RECURSION_LIMIT:
            raise recursion_limit_error()
        prev = interp.frame
        fr.caller = prev
        interp.frame = fr
        interp.depth += 1
        try:
            if value is not None:
                return [value(fr)]
            return body(fr, nargout)
        finally:
            interp.frame = prev
            interp.depth -= 1

    return anonymous
