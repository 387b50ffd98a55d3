"""Generated call sites for ``name(a0, ..., aN)`` with plain arguments.

One factory per argument count is generated (``exec``) so a call reads its
arguments into locals and takes the cheapest applicable path: a builtin on
Python floats directly, a builtin or file function on host values
(``HOST_TYPES``: no method to dispatch to, no device operand) with no
dispatcher layers, a variable indexed, anything else through
``NameCall.value``.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime import indexing as _ix
from matfuse.runtime.classdef_objects import method_for
from matfuse.runtime.dispatcher import AUTO_OFFLOAD
from matfuse.runtime.values import CellArray, FunctionHandle, StringArray, StructArray
from matfuse.vm._calls import MISSING, NameCall, call_handle, too_many_outputs


def finish_fast(site: NameCall, result: Any) -> Any:
    """Normalise a builtin's direct result to one value."""
    if type(result) is tuple:
        return result[0]
    if result is None:
        raise too_many_outputs(site.name)
    return result


def fast_failed(err: MatlabError, site: NameCall) -> MatlabError:
    """Name the builtin and place the error (resolution failures name nobody)."""
    if err.function_name is None and err.identifier != "MATLAB:UndefinedFunction" \
            and site.target is not None:
        err.function_name = site.target.name
    if err.span is None:
        err.span = site.span
    return err


_call_factories: dict[int, Callable] = {}


def make_call_site(name: str, fns: list[Callable[[Any], Any]], ctx: Any,
                   span: Any) -> Callable[[Any], Any]:
    """``name(a0, ..., aN)`` with plain arguments (no ``end``, no cs-lists):
    generated so a builtin on float arguments is called with no list, no
    dispatcher and no extra frames; variables are indexed as usual."""
    n = len(fns)
    factory = _call_factories.get(n)
    if factory is None:
        args = ", ".join(f"a{k}" for k in range(n))
        evals = "".join(f"        a{k} = f{k}(fr)\n" for k in range(n))
        floats = " and ".join(f"type(a{k}) is float" for k in range(n))
        hosts = " and ".join(f"type(a{k}) in HOST" for k in range(n))
        small = " and ".join(f"(type(a{k}) is not ndarray or a{k}.size < AUTO.min_array)"
                             for k in range(n))
        src = (
            f"def factory(name, fns, site, MISSING, index_value, slow, finish, failed, "
            f"MatlabError, AUTO, method_for, HOST, host_call, function_call, "
            f"ndarray, F64, LOGICAL, host_failed, too_many_outputs):\n"
            f"    {args}, = fns\n".replace(args, ", ".join(f"f{k}" for k in range(n)), 1)
            + "    def call_site(fr):\n"
            "        v = fr.get(name, MISSING)\n"
            + evals +
            "        if v is not MISSING:\n"
            + _SCALAR_READS.get(n, "") +
            f"            return index_value(fr, v, [{args}])\n"
            "        interp = fr.interp\n"
            "        if site.gen != interp.generation:\n"
            "            try:\n"
            "                site.resolve(interp)\n"
            "            except MatlabError as err:\n"
            f"                if method_for(name, [{args}]) is not None:\n"
            f"                    return slow(fr, site, [{args}])\n"
            "                raise failed(err, site) from None\n"
            f"        if site.fast and {floats} and (not site.plannable or AUTO.call is None):\n"
            "            try:\n"
            f"                r = site.impl({args})\n"
            "            except MatlabError as err:\n"
            "                raise failed(err, site) from None\n"
            "            if type(r) is float:\n"
            "                return r\n"
            "            return finish(site, r)\n"
            f"        if site.host and {hosts}:\n"
            # What host_call does, inline, for a builtin taking neither the
            # interpreter nor nargout (calling 0) or only nargout (1) that
            # no offload hook can reach.
            "            calling = site.calling\n"
            "            if calling < 2 and (AUTO.call is None or (\n"
            f"                    {small} and site.target.name not in AUTO.watched)):\n"
            "                try:\n"
            f"                    r = site.impl({args}) if calling == 0 \\\n"
            f"                        else site.impl({args}, nargout=1)\n"
            "                except MatlabError as err:\n"
            "                    host_failed(err, site)\n"
            "                    raise\n"
            "                if type(r) is tuple:\n"
            "                    return r[0]\n"
            "                if r is None:\n"
            "                    raise too_many_outputs(site.name)\n"
            "                return r\n"
            f"            return host_call(interp, site, [{args}])\n"
            f"        if site.function is not None and {hosts}:\n"
            f"            return function_call(interp, site, [{args}])\n"
            f"        return slow(fr, site, [{args}])\n"
            "    return call_site\n")
        namespace: dict[str, Any] = {}
        exec(compile(src, f"<call site {n} args>", "exec"), namespace)
        factory = namespace["factory"]
        _call_factories[n] = factory
    site = NameCall(name, ctx.scope, span, n)
    return factory(name, fns, site, MISSING, _index_value(span), _slow_call(span),
                   finish_fast, fast_failed, MatlabError, AUTO_OFFLOAD, method_for,
                   HOST_TYPES, host_call, function_call, np.ndarray, _F64, _LOGICAL,
                   host_failed, too_many_outputs)


# ``x(k)`` and ``x(i, j)`` of a double or logical matrix with whole numbers
# in range: the element (column-major for ``x(k)``), what ``paren_get``
# returns for it, inline. Anything else (errors included) takes
# ``index_value``.
_SCALAR_READS = {
    1: ("            if type(v) is ndarray and type(a0) is float and 1.0 <= a0 <= v.size:\n"
        "                dt = v.dtype\n"
        "                if (dt is F64 or dt is LOGICAL) and v.ndim == 2:\n"
        "                    k = int(a0)\n"
        "                    if k == a0:\n"
        "                        rows = v.shape[0]\n"
        "                        return v.item((k - 1) % rows, (k - 1) // rows)\n"),
    2: ("            if type(v) is ndarray and type(a0) is float and type(a1) is float \\\n"
        "                    and v.ndim == 2:\n"
        "                dt = v.dtype\n"
        "                rows, cols = v.shape\n"
        "                if (dt is F64 or dt is LOGICAL) and 1.0 <= a0 <= rows \\\n"
        "                        and 1.0 <= a1 <= cols:\n"
        "                    r = int(a0)\n"
        "                    c = int(a1)\n"
        "                    if r == a0 and c == a1:\n"
        "                        return v.item(r - 1, c - 1)\n"),
}
_F64 = np.dtype(np.float64)
_LOGICAL = np.dtype(np.bool_)


#: Value types that are never objects with methods nor device arrays: a
#: builtin call on them needs no method dispatch and no device routing.
HOST_TYPES = frozenset({float, bool, np.ndarray, CellArray, StructArray, StringArray,
                        FunctionHandle})


def function_call(interp: Any, site: NameCall, args: list) -> Any:
    """A resolved file function on ``HOST_TYPES`` arguments (no method to
    dispatch to): called directly, one value out."""
    try:
        out = interp.call_function(site.function, args, 1)
    except MatlabError as err:
        if err.span is None:
            err.span = site.span
        raise
    if not out:
        raise too_many_outputs(site.name)
    return out[0]


def host_call(interp: Any, site: NameCall, args: list) -> Any:
    """A resolved builtin on ``HOST_TYPES`` arguments of an accepted count:
    what ``call_builtin`` does for them (the auto-offload hook first, then
    the implementation), one value out."""
    target = site.target
    hook = AUTO_OFFLOAD.call
    if hook is not None:
        # Only a watched builtin or a large host array can interest the hook.
        reach = target.name in AUTO_OFFLOAD.watched
        if not reach:
            limit = AUTO_OFFLOAD.min_array
            for a in args:
                if type(a) is np.ndarray and a.size >= limit:
                    reach = True
                    break
        if reach:
            out = hook(target, args, 1, interp)
            if out is not None:
                if not out:
                    raise too_many_outputs(site.name)
                return out[0]
    calling = site.calling
    try:
        if calling == 0:
            result = site.impl(*args)
        elif calling == 1:
            result = site.impl(*args, nargout=1)
        elif calling == 2:
            result = site.impl(interp, *args)
        else:
            result = site.impl(interp, *args, nargout=1)
    except MatlabError as err:
        host_failed(err, site)
        raise
    t = type(result)
    if t is tuple:
        return result[0]
    if result is None:
        raise too_many_outputs(site.name)
    return result


def host_failed(err: MatlabError, site: NameCall) -> None:
    """Name the builtin and place the error of a call ``host_call`` made."""
    if err.function_name is None:
        err.function_name = site.target.name
    if err.span is None:
        err.span = site.span


def _index_value(span: Any) -> Callable[[Any, Any, list], Any]:
    paren_get = _ix.paren_get

    def index_value(fr: Any, v: Any, idx: list) -> Any:
        try:
            if type(v) is FunctionHandle:
                out = call_handle(fr.interp, v, idx, 1)
                if not out:
                    raise too_many_outputs(None)
                return out[0]
            return paren_get(v, idx)
        except MatlabError as err:
            if err.span is None:
                err.span = span
            raise
    return index_value


def _slow_call(span: Any) -> Callable[[Any, NameCall, list], Any]:
    def slow(fr: Any, site: NameCall, args: list) -> Any:
        try:
            return site.value(fr, args)
        except MatlabError as err:
            if err.span is None:
                err.span = span
            raise
    return slow
