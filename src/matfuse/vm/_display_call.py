"""``display(x)`` as a statement: MATLAB labels the shown value with the
argument's variable name (``inputname``), so ``display(x)`` prints
``x = ...`` rather than ``ans = ...``."""

from __future__ import annotations

from typing import Any, Callable

from matfuse.lang import ast
from matfuse.vm import _calls

Stmt = Callable[[Any], Any]


def is_display_of_variable(expr: ast.Expr) -> bool:
    """``display(x)``: the call whose output is labelled with the argument's
    variable name (MATLAB's ``inputname``)."""
    return (type(expr) is ast.Index and expr.kind == "()" and type(expr.base) is ast.Ident
            and expr.base.name == "display" and len(expr.args) == 1
            and type(expr.args[0]) is ast.Ident)


def display_named(expr: ast.Index, multi: Callable[[Any, int], list], ctx: Any) -> Stmt:
    """``display(x)`` statement: when ``display`` is the builtin and ``x`` a
    variable, the value is shown as ``x = ...``; otherwise an ordinary call."""
    from matfuse.runtime.registry import Builtin

    arg_name = expr.args[0].name
    site = _calls.NameCall("display", ctx.scope, expr.span)

    def display_stmt(fr: Any) -> Any:
        value = fr.get(arg_name, _calls.MISSING)
        if "display" not in fr and value is not _calls.MISSING:
            interp = fr.interp
            target = site.target if site.gen == interp.generation else site.resolve(interp)
            if type(target) is Builtin:
                interp.show(arg_name, value)
                return None
        multi(fr, 0)
        return None
    return display_stmt
