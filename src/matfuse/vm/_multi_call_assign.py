"""``[a, b] = name(x, y)``: a multi-output call into plain variables.

The general multi-assignment evaluates the right side through the
comma-separated-list layers (``ExprCompiler.multi``: the name read, the
argument list builder, the call) and writes each output through its target's
setter. For the everyday form, targets that are plain variables (or ``~``)
and a call of a name with plain arguments (no ``end``, no cs-lists, no
colon), one closure does the same steps: a variable of that name is indexed
through the general path, anything else is called as ``ident_index`` calls
it (a builtin on plain values directly, ``host_builtin_outputs``), and the
outputs are stored in the workspace.
"""

from __future__ import annotations

from typing import Any, Callable

from matfuse.errors import MatlabError
from matfuse.lang import ast
from matfuse.runtime.registry import Builtin
from matfuse.vm import _calls
from matfuse.vm.names import contains_end

MultiClosure = Callable[[Any, int], list]


def plain_call_targets(node: ast.Assign, exprs: Any, ctx: Any) -> bool:
    """Whether ``node`` is ``[t1, ..., tn] = name(args)`` of the form above."""
    value = node.value
    if node.display or type(value) is not ast.Index or value.kind != "()" \
            or type(value.base) is not ast.Ident:
        return False
    if ctx.special_reader(value.base.name) is not None:
        return False
    args = value.args
    if not 0 < len(args) <= 4 or any(contains_end(a) or exprs.is_multi(a)
                                     or type(a) is ast.Colon for a in args):
        return False
    for t in node.targets:
        if type(t) is ast.Tilde:
            continue
        if type(t) is not ast.Ident or ctx.special_writer(t.name) is not None:
            return False
    return True


def multi_call_assign(node: ast.Assign, exprs: Any, ctx: Any,
                      general_rhs: MultiClosure) -> Callable[[Any], None]:
    """The statement's closure (without the statement guard); ``node``
    passes ``plain_call_targets``; ``general_rhs`` is the general reading
    of the right side (used when ``name`` is a variable)."""
    call = node.value
    name = call.base.name
    span = call.base.span
    fns = [exprs.value(a) for a in call.args]
    names = tuple(None if type(t) is ast.Tilde else t.name for t in node.targets)
    count = len(names)
    # Values needed up to the last real target (trailing ~ may go unfilled).
    needed = max((i + 1 for i, n in enumerate(names) if n is not None), default=0)
    site = _calls.NameCall(name, ctx.scope, span)
    host_builtin_outputs = _calls.host_builtin_outputs
    missing = _calls.MISSING

    def outputs_of(fr: Any) -> list:
        if fr.get(name, missing) is not missing:
            return general_rhs(fr, count)
        try:
            args = [f(fr) for f in fns]
            interp = fr.interp
            if site.gen == interp.generation and type(site.target) is Builtin:
                outputs = host_builtin_outputs(site.target, args, count, interp)
                if outputs is not None:
                    return outputs
            return site(fr, args, count)
        except MatlabError as err:
            if err.span is None:
                err.span = span
            raise

    def assign_outputs(fr: Any) -> None:
        values = outputs_of(fr)
        if len(values) < needed:
            raise MatlabError("MATLAB:needMoreRhsOutputs",
                              "Insufficient number of outputs from right hand side of "
                              "equal sign to satisfy assignment.")
        for target, value in zip(names, values):
            if target is not None:
                fr[target] = value
        return None
    return assign_outputs
