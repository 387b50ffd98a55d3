"""Deep left-nested chains compiled and evaluated with loops, not recursion.

``1+1+...+1`` parses to a left spine of Binary nodes and ``s.a.a...`` or
``c{1}{1}...`` to a left spine of postfix nodes (Field, DynField, Index).
Lowering such a spine node by node would nest one closure per node and
recurse once per node when compiling and again when running, so a program
with ten thousand terms would exhaust Python's stack. Spines at least
``CHAIN_MIN_DEPTH`` long are lowered here instead: the spine is walked with a
loop, each side operand is lowered normally, and the resulting closure folds
the operands left to right. Shorter spines keep the per-node closures (and
their inlined float fast paths).
"""

from __future__ import annotations

import operator
from typing import Any, Callable

from matfuse.lang import ast
from matfuse.runtime import indexing as _ix
from matfuse.runtime import ops as _ops
from matfuse.vm import _calls

CHAIN_MIN_DEPTH = 32

Closure = Callable[[Any], Any]

# Float fast paths of the fold: MATLAB op -> Python function on two floats.
_FLOAT_OPS: dict[str, Callable[[float, float], Any]] = {
    "+": operator.add, "-": operator.sub, ".*": operator.mul, "*": operator.mul,
    "==": operator.eq, "~=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
}
_SHORT_CIRCUIT = ("&&", "||")
_POSTFIX_TYPES = (ast.Field, ast.DynField, ast.Index)


# ------------------------------------------------------------------ binary
def binary_spine_is_deep(node: ast.Binary) -> bool:
    """Whether ``node``'s left spine of Binary nodes reaches CHAIN_MIN_DEPTH."""
    depth = 0
    while type(node) is ast.Binary:
        depth += 1
        if depth >= CHAIN_MIN_DEPTH:
            return True
        node = node.left
    return False


def compile_binary_chain(exprs: Any, top: ast.Binary) -> Closure:
    """``((a op1 b) op2 c) ...`` as one closure folding left to right."""
    spine: list[ast.Binary] = []
    node: ast.Expr = top
    while type(node) is ast.Binary:
        spine.append(node)
        node = node.left
    first = exprs.value(node)
    steps = [(b.op, exprs.value(b.right), _FLOAT_OPS.get(b.op)) for b in reversed(spine)]
    binary = _ops.binary
    truth = _calls.scalar_truth

    def binary_chain(fr: Any) -> Any:
        a = first(fr)
        for op, right, float_op in steps:
            if op == "&&":
                a = truth(a, op) and truth(right(fr), op)
                continue
            if op == "||":
                a = truth(a, op) or truth(right(fr), op)
                continue
            b = right(fr)
            if float_op is not None and type(a) is float and type(b) is float:
                a = float_op(a, b)
            else:
                a = binary(op, a, b)
        return a
    return binary_chain


# ------------------------------------------------------------------ postfix
def postfix_spine_is_deep(node: ast.Expr) -> bool:
    """Whether ``node`` starts a postfix spine of at least CHAIN_MIN_DEPTH nodes."""
    depth = 0
    while _continues_postfix(node):
        depth += 1
        if depth >= CHAIN_MIN_DEPTH:
            return True
        node = node.base  # type: ignore[attr-defined]
    return False


def _continues_postfix(node: ast.Expr) -> bool:
    """A postfix node whose base is evaluated as a value (not ``name(args)``)."""
    t = type(node)
    return t is ast.Field or t is ast.DynField or (t is ast.Index and type(node.base) is not ast.Ident)


def compile_postfix_chain(exprs: Any, top: ast.Expr) -> Callable[[Any, int], list]:
    """``base.f{i}(j)...`` as ``g(frame, nargout) -> list`` applying each
    postfix step in a loop; every step but the last keeps one value."""
    spine: list[ast.Expr] = []
    node: ast.Expr = top
    while _continues_postfix(node):
        spine.append(node)
        node = node.base  # type: ignore[attr-defined]
    first = exprs.value(node)
    steps = [_postfix_step(exprs, n) for n in reversed(spine)]
    inner, last = steps[:-1], steps[-1][0]

    def postfix_chain(fr: Any, nargout: int) -> list:
        v = first(fr)
        for step, what in inner:
            v = _calls.one_value(step(fr, v, 1), what)
        return last(fr, v, nargout)
    return postfix_chain


def _postfix_step(exprs: Any, node: ast.Expr) -> tuple[Callable[[Any, Any, int], list], str]:
    """One postfix step ``(fr, base value, nargout) -> list`` and the message
    for when it yields no value where one is needed."""
    t = type(node)
    if t is ast.Field:
        name = node.name

        def field_step(fr: Any, v: Any, nargout: int) -> list:
            return _ix.field_get(v, name)
        return field_step, ""
    if t is ast.DynField:
        name_expr = exprs.value(node.name_expr)

        def dynfield_step(fr: Any, v: Any, nargout: int) -> list:
            return _ix.field_get(v, _calls.field_name(name_expr(fr)))
        return dynfield_step, ""
    cell, build = exprs.index_parts(node)
    kind = node.kind
    index_into = _calls.index_into

    def index_step(fr: Any, v: Any, nargout: int) -> list:
        return index_into(fr, v, kind, cell, build, nargout)
    return index_step, ("Brace indexing produced no results." if kind == "{}" else "")

