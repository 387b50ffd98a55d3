"""Run-time helpers the compiled closures call: name resolution at call
sites, indexing a value vs calling a function, function-handle creation."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError, undefined_function
from matfuse.runtime import indexing as _ix
from matfuse.runtime.classdef_objects import method_for
from matfuse.runtime.dispatcher import AUTO_OFFLOAD, call_builtin, invoke
from matfuse.runtime.registry import Builtin
from matfuse.vm.call_plan import anonymous_call, too_many_outputs
from matfuse.vm.functions import CompiledFunction
from matfuse.runtime.values import (CHAR_DTYPE, CellArray, DeviceValue, FunctionHandle,
                                   StringArray, StructArray, is_char, to_str)

MISSING = object()
_generation_counter = [0]


def next_generation() -> int:
    """A generation number unique across interpreters (call-site caches compare it)."""
    _generation_counter[0] += 1
    return _generation_counter[0]


def unrecognized(name: str) -> MatlabError:
    return undefined_function(name)


def no_output_text(name: str) -> str:
    return "Too many output arguments."


def one_value(values: list, what: str = "") -> Any:
    """The single value an expression context needs from a comma-separated list."""
    if values:
        return values[0]
    raise MatlabError("MATLAB:needMoreRhsOutputs",
                      "Insufficient number of outputs from right hand side of equal sign "
                      "to satisfy assignment." if not what else what)


def plain_reader(name: str) -> Callable[[Any], Any]:
    def read(fr: Any) -> Any:
        return fr.get(name, MISSING)
    return read


class NameCall:
    """A call site of a named function; caches its resolution per generation."""

    __slots__ = ("name", "scope", "gen", "target", "fast", "span", "impl", "arity", "nargs",
                 "plannable", "host", "calling", "function")

    def __init__(self, name: str, scope: Any, span: Any = None, nargs: int | None = None):
        self.name = name
        self.scope = scope
        self.span = span
        # Argument count when fixed at compile time (no cs-lists): the fast
        # path's arity check then happens once, at resolution.
        self.nargs = nargs
        self.gen = -1
        self.target: Any = None
        self.fast = False
        self.impl: Any = None
        self.arity: tuple[int, float] = (0, 0.0)
        # Construction builtins (zeros, rand, linspace...) of float arguments
        # are what the auto-offload planner places on a device: while its
        # hook is installed they must go through call_builtin.
        self.plannable = False
        # A builtin taking this many arguments (fixed at compile time):
        # ``make_call_site`` calls it directly on host values, in the
        # calling convention ``calling`` (see ``_HOST_CALLS``).
        self.host = False
        self.calling = 0
        # A function of a file (not a builtin): ``make_call_site`` calls it
        # straight through ``call_function`` on host values.
        self.function: Any = None

    def resolve(self, interp: Any) -> Any:
        target = interp.resolve(self.name, self.scope)
        if target is None:
            raise unrecognized(self.name).with_span(self.span)
        self.target = target
        # Builtins without ctx/nargout may be called directly on float args.
        self.fast = (type(target) is Builtin and not target.needs_ctx
                     and not target.wants_nargout)
        self.plannable = (type(target) is Builtin and target.gpu is not None
                          and target.gpu.kind == "construction")
        if self.fast:
            self.impl = target.impl
            self.arity = (target.min_args,
                          float("inf") if target.max_args is None else target.max_args)
            if self.nargs is not None and not self.arity[0] <= self.nargs <= self.arity[1]:
                self.fast = False
        self.host = (type(target) is Builtin and self.nargs is not None
                     and target.min_args <= self.nargs
                     and (target.max_args is None or self.nargs <= target.max_args))
        if self.host:
            self.impl = target.impl
            self.calling = 2 * target.needs_ctx + target.wants_nargout
        self.function = target if type(target) is CompiledFunction else None
        self.gen = interp.generation
        return target

    def __call__(self, fr: Any, args: list, nargout: int) -> list:
        interp = fr.interp
        if args:
            method = method_for(self.name, args)
            if method is not None:
                return interp.call_function(method, args, nargout)
        target = self.target if self.gen == interp.generation else self.resolve(interp)
        # Builtins and file functions skip the interpreter's dispatch on the
        # target's type (one Python frame less, on error paths too).
        if type(target) is Builtin:
            return call_builtin(target, args, nargout, interp)
        if self.function is not None:
            return interp.call_function(target, args, nargout)
        return interp.invoke(target, args, nargout, self.name)

    def value(self, fr: Any, args: list) -> Any:
        """Call with nargout=1 and return the one value (fast path for builtins
        of Python-float arguments)."""
        interp = fr.interp
        for a in args:
            # an object argument in any position dispatches (rem(11, S))
            if type(a) is not float:
                method = method_for(self.name, args)
                if method is not None:
                    out = interp.call_function(method, args, 1)
                    if not out:
                        raise too_many_outputs(self.name)
                    return out[0]
                break
        if self.gen != interp.generation:
            self.resolve(interp)
        if self.fast and not (self.plannable and AUTO_OFFLOAD.call is not None):
            for a in args:
                if type(a) is not float:
                    break
            else:
                low, high = self.arity
                if low <= len(args) <= high:
                    try:
                        result = self.impl(*args)
                    except MatlabError as err:
                        if err.function_name is None:
                            err.function_name = self.target.name
                        raise
                    t = type(result)
                    if t is float or t is bool or t is np.ndarray:
                        return result
                    if t is tuple:
                        return result[0]
                    if result is None:
                        raise too_many_outputs(self.name)
                    return result
        target = self.target
        # Builtins skip the interpreter's dispatch on the target's type.
        out = (call_builtin(target, args, 1, interp) if type(target) is Builtin
               else interp.invoke(target, args, 1, self.name))
        if not out:
            raise too_many_outputs(self.name)
        return out[0]


#: Builtins that read the running function's own call counts.
CALL_COUNTS = frozenset({"nargin", "nargout"})


def call_count_reader(name: str, call: NameCall, span: Any) -> Callable[[Any], Any]:
    """``nargin`` / ``nargout`` as a bare name: a variable of that name if
    one exists, else, where the name resolves to the builtin and a function
    is running, the count kept in its workspace (no builtin call: every
    ``if nargin < 2`` reads it); anything else is the general call."""
    def read_call_count(fr: Any) -> Any:
        # get(), not [] + KeyError: the variable is the rare case here.
        value = fr.get(name, MISSING)
        if value is not MISSING:
            return value
        try:
            interp = fr.interp
            if call.gen != interp.generation:
                call.resolve(interp)
            target = call.target
            running = interp.frame
            if type(target) is Builtin and target.name == name \
                    and running.function is not None:
                return float(running.nargin if name == "nargin" else running.nargout)
            return call.value(fr, [])
        except MatlabError as err:
            if err.span is None:
                err.span = span
            raise
    return read_call_count


def call_handle(interp: Any, fh: FunctionHandle, args: list, nargout: int) -> list:
    if fh.fn is not None:
        return fh.fn(args, nargout)
    method = method_for(fh.name, args) if args else None
    if method is not None:
        return interp.call_function(method, args, nargout)
    return interp.invoke(handle_target(interp, fh), args, nargout, fh.name)


#: Value types that are never objects with methods (no dispatch to try).
PLAIN_VALUE_TYPES = frozenset({float, bool, np.ndarray, CellArray, StructArray, StringArray,
                               FunctionHandle})


def handle_caller(interp: Any, fh: FunctionHandle) -> Callable[[list, int], list]:
    """``call(args, nargout)``: what ``call_handle(interp, fh, ...)`` does,
    for calling one handle many times (cellfun, arrayfun): an anonymous or
    bound handle is its own callable; a named one keeps its target (checked
    against the generation, as call sites are) and calls a builtin through
    the dispatcher without the interpreter's dispatch on the target."""
    if fh.fn is not None:
        return fh.fn
    name = fh.name
    resolved: list = [None, -1]      # target, generation

    def call_named(args: list, nargout: int) -> list:
        for a in args:
            if type(a) not in PLAIN_VALUE_TYPES:
                # an object argument in any position dispatches
                method = method_for(name, args)
                if method is not None:
                    return interp.call_function(method, args, nargout)
                break
        target, generation = resolved
        if generation != interp.generation:
            target = resolved[0] = handle_target(interp, fh)
            resolved[1] = interp.generation
        if type(target) is Builtin:
            return call_builtin(target, args, nargout, interp)
        return interp.invoke(target, args, nargout, name)
    return call_named


def handle_target(interp: Any, fh: FunctionHandle) -> Any:
    """What ``@name`` calls now: resolved once per generation (as call sites
    are), so ``cellfun(@numel, c)`` searches the path once, not per element."""
    cache = interp.handle_targets
    if cache.generation != interp.generation:
        cache.clear()
        cache.generation = interp.generation
    key = (fh.name, fh.scope)
    target = cache.get(key)
    if target is None:
        target = interp.resolve(fh.name, fh.scope)
        if target is None:
            raise unrecognized(fh.name or "")
        cache[key] = target
    return target


class HandleTargets(dict):
    """``(name, scope) -> target`` of the named handles called in one
    generation (``generation``: the one the entries belong to)."""

    __slots__ = ("generation",)

    def __init__(self) -> None:
        super().__init__()
        self.generation = -1


def handle_end_error() -> MatlabError:
    """``end`` inside the arguments of a function handle call: a handle has
    no size for ``end`` to refer to."""
    return MatlabError("MATLAB:badsubscript",
                       "'end' cannot be used in the arguments of a function handle call.")


def host_builtin_outputs(b: Builtin, args: list, nargout: int, interp: Any) -> list | None:
    """``[x, y] = name(args)`` of a builtin on ``PLAIN_VALUE_TYPES`` arguments
    of an accepted count and output count, which no offload hook can reach
    (no watched name, no array of the hook's size): what ``call_builtin``
    does for it, without its checks; None for any other call (the general
    path then runs, errors included)."""
    nargs = len(args)
    if nargs < b.min_args or (b.max_args is not None and nargs > b.max_args) or (
            b.max_out is not None and nargout > b.max_out and nargout > 1):
        return None
    hooked = AUTO_OFFLOAD.call is not None
    if hooked and b.name in AUTO_OFFLOAD.watched:
        return None
    limit = AUTO_OFFLOAD.min_array
    for a in args:
        t = type(a)
        if t not in PLAIN_VALUE_TYPES or (hooked and t is np.ndarray and a.size >= limit):
            return None
    return invoke(b, args, nargout, interp)


def index_into(fr: Any, v: Any, kind: str, cell: list | None,
               build: Callable[[Any], list], nargout: int) -> list:
    """``v(args)`` / ``v{args}`` as a list of values (a handle is called)."""
    if kind == "()" and type(v) is FunctionHandle:
        if cell is not None:
            raise handle_end_error()
        return call_handle(fr.interp, v, build(fr), nargout)
    if cell is not None:
        old = cell[0]
        cell[0] = v
        try:
            idx = build(fr)
        finally:
            cell[0] = old
    else:
        idx = build(fr)
    if kind == "()":
        return [_ix.paren_get(v, idx)]
    return _ix.brace_get(v, idx)


def ident_index(name: str, kind: str, cell: list | None,
                build: Callable[[Any], list], ctx: Any, span: Any = None
                ) -> Callable[[Any, int], list]:
    """Multi-valued ``name(args)``: index the variable, or call the function."""
    special = ctx.special_reader(name)
    if kind == "{}" and cell is None and special is None:
        return _ident_brace(name, build, span)
    read = special or plain_reader(name)
    call = NameCall(name, ctx.scope, span)

    def ident_index_multi(fr: Any, nargout: int) -> list:
        try:
            v = read(fr)
            if v is MISSING:
                if kind == "{}" or cell is not None:
                    # ``end`` needs a variable to refer to.
                    raise unrecognized(name)
                args = build(fr)
                interp = fr.interp
                if call.gen == interp.generation and type(call.target) is Builtin:
                    outputs = host_builtin_outputs(call.target, args, nargout, interp)
                    if outputs is not None:
                        return outputs
                return call(fr, args, nargout)
            return index_into(fr, v, kind, cell, build, nargout)
        except MatlabError as err:
            if err.span is None:
                err.span = span
            raise
    return ident_index_multi


def _ident_brace(name: str, build: Callable[[Any], list], span: Any
                 ) -> Callable[[Any, int], list]:
    """``name{args}`` of an ordinary variable, no ``end`` in the arguments
    (``c{k}`` in loops): what ``ident_index`` does for it, inline."""
    brace_get = _ix.brace_get

    def ident_brace(fr: Any, nargout: int) -> list:
        v = fr.get(name, MISSING)
        try:
            if v is MISSING:
                raise unrecognized(name)
            return brace_get(v, build(fr))
        except MatlabError as err:
            if err.span is None:
                err.span = span
            raise
    return ident_brace


def ident_paren_value(name: str, cell: list | None, build: Callable[[Any], list],
                      ctx: Any, span: Any = None) -> Callable[[Any], Any]:
    """Single-valued ``name(args)``: the hot path of loops (``x(i)``, ``mod(i,7)``)."""
    call = NameCall(name, ctx.scope, span)
    call_value = call.value
    paren_get = _ix.paren_get

    def ident_paren(fr: Any) -> Any:
        try:
            # get(), not [] + KeyError: a function call is the common miss here.
            v = fr.get(name, MISSING)
            if v is MISSING:
                if cell is not None:
                    raise unrecognized(name)
                return call_value(fr, build(fr))
            if type(v) is FunctionHandle:
                if cell is not None:
                    raise handle_end_error()
                out = call_handle(fr.interp, v, build(fr), 1)
                if not out:
                    raise too_many_outputs(None)
                return out[0]
            if cell is None:
                return paren_get(v, build(fr))
            old = cell[0]
            cell[0] = v
            try:
                idx = build(fr)
            finally:
                cell[0] = old
            return paren_get(v, idx)
        except MatlabError as err:
            if err.span is None:
                err.span = span
            raise
    return ident_paren


def scalar_truth(v: Any, op: str) -> bool:
    """Operand of ``&&``/``||``: must be convertible to a logical scalar."""
    t = type(v)
    if t is bool:
        return v
    if t is float:
        if v != v:
            raise MatlabError("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
        return v != 0.0
    if isinstance(v, DeviceValue) and tuple(v.shape) == (1, 1):
        # a gpuArray scalar is read back: the host branches on it
        return scalar_truth(v.gather(), op)
    if t is np.ndarray and v.size == 1 and v.dtype.kind in "biufcU":
        if v.dtype.kind == "U":
            return bool(v.reshape(-1).view(np.uint32)[0] != 0)   # keeps char(0)
        x = v.reshape(-1)[0]
        if x != x:
            raise MatlabError("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
        return bool(x != 0)
    full = getattr(v, "full_array", None)      # a 1x1 sparse matrix
    if full is not None and tuple(v.shape) == (1, 1):
        return scalar_truth(full(), op)
    raise MatlabError("MATLAB:nonLogicalConditional",
                      "Operands to the logical AND (&&) and OR (||) operators must be "
                      "convertible to logical scalar values. Use the ANY or ALL functions to "
                      "reduce operands to logical scalar values.")


def field_name(v: Any) -> str:
    if type(v) is np.ndarray and v.dtype == CHAR_DTYPE and v.ndim == 2 and v.shape[0] == 1:
        return "".join(v[0].tolist())      # a char row, the common case
    if is_char(v) or isinstance(v, StringArray):
        return to_str(v)
    raise MatlabError("MATLAB:dynamicFieldName",
                      "Dynamic structure field names must be character vectors or strings.")


def new_field_name(v: Any) -> str:
    """The name in ``s.(name) = ...``: MATLAB rejects names that are not
    ASCII identifiers of at most 63 characters when the field is added."""
    name = field_name(v)
    # An ASCII identifier not starting with "_": a letter, then letters,
    # digits and underscores (str methods: no regular expression per call).
    if not (name.isascii() and name.isidentifier()) or name[0] == "_" or len(name) > 63:
        raise MatlabError("MATLAB:AddField:InvalidFieldName", f"Invalid field name: '{name}'.")
    return name


def bind_target(interp: Any, target: Any, name: str) -> Callable[[list, int], list]:
    def call(args: list, nargout: int) -> list:
        return interp.invoke(target, args, nargout, name)
    return call


def make_named_handle(name: str, scope: Any, fr: Any) -> FunctionHandle:
    """``@name``: local functions bind now (so the handle works elsewhere)."""
    fh = FunctionHandle(name=name, scope=scope)
    if scope is not None:
        local = scope.functions.get(name)
        if local is not None and local.parent is not None:
            # A nested function's handle keeps its parent workspace alive.
            interp = fr.interp
            parent = interp.parent_frame_for(local, fr)

            def call_nested(args: list, nargout: int) -> list:
                return interp.call_function(local, args, nargout, parent)
            fh.fn = call_nested
        elif local is not None:
            fh.fn = bind_target(fr.interp, local, name)
    return fh


def make_anonymous(fr: Any, params: list[str], free: list[str],
                   body: Callable[[Any, int], list], text: str, scope: Any,
                   value: Callable[[Any], Any] | None = None) -> FunctionHandle:
    """``@(params) body``: captures the referenced variables by value now
    (``value``: the body as a one-value closure, see ``anonymous_call``)."""
    captured = {n: fr[n] for n in free if n in fr}
    anonymous = anonymous_call(fr.interp, captured, params, body, value, text, scope)
    return FunctionHandle(fn=anonymous, text=text, captured=captured, scope=scope)
