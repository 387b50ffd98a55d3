"""Which for loops the fusion engine may replay (``fusion/loop_trace.py``).

Replaying skips running the body for most iterations, so the body must have
no effect other than assigning variables, and take the same path each time:

* statements are suppressed assignments to plain names (``x = expr;``) and
  ``if`` statements whose conditions read no name the body assigns and not
  the loop variable;
* expressions are operators, literals, names and ``name(args)`` (calls or
  indexing); names that are not variables when the loop starts must resolve
  to side-effect-free builtins (``REPLAY_SAFE_BUILTINS``).

Whether the iterations really repeat is decided at run time by comparing the
graphs two consecutive iterations build; this module only rules out bodies
whose skipped iterations could be observed.
"""

from __future__ import annotations

from typing import Any

from matfuse.lang import ast
from matfuse.vm.names import expr_reads
from matfuse.vm.statement_facts import stmt_facts

# Builtins without side effects (randn/rand only advance the random stream,
# which the replay advances by what the skipped iterations would draw).
REPLAY_SAFE_BUILTINS = frozenset({
    "abs", "sign", "sqrt", "exp", "expm1", "log", "log2", "log10", "log1p",
    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "atan2", "hypot",
    "floor", "ceil", "round", "fix", "mod", "rem", "max", "min", "power", "times", "plus",
    "minus", "rdivide", "ldivide", "uminus", "not", "and", "or", "xor", "eq", "ne", "lt",
    "le", "gt", "ge", "isnan", "isinf", "isfinite", "single", "double", "logical",
    "zeros", "ones", "rand", "randn", "gpuArray", "pi", "eps", "Inf", "inf", "NaN", "nan",
    "true", "false", "size", "numel", "length",
})

_PLAIN_EXPRS = (ast.Number, ast.String, ast.Ident, ast.Colon, ast.End)


class ReplayableBody:
    """The static facts about a replayable loop body.

    Attributes:
        assigned: the names the body assigns (the tracer's variables).
        names: every name the body reads (variables or functions).
    """

    def __init__(self, assigned: tuple[str, ...], names: frozenset[str]):
        self.assigned = assigned
        self.names = names

    def safe_in(self, frame: Any) -> bool:
        """Whether every name that is not a variable now is a safe builtin."""
        from matfuse.runtime.registry import Builtin

        interp = frame.interp
        scope = frame.scope
        for name in self.names:
            if name in frame or name in self.assigned:
                continue
            if name not in REPLAY_SAFE_BUILTINS:
                return False
            if not isinstance(interp.resolve(name, scope), Builtin):
                return False
        return True


def replayable_body(body: list[ast.Stmt], loop_var: str) -> ReplayableBody | None:
    """The body's facts if a loop with this body may be replayed, else None."""
    if not body or not _only_assignments_and_ifs(body):
        return None
    assigned: set[str] = set()
    for stmt in body:
        assigned.update(stmt_facts(stmt)[1])
    if loop_var in assigned:
        return None
    names: set[str] = set()
    if not _statements_ok(body, assigned | {loop_var}, names):
        return None
    order = tuple(sorted(assigned))
    return ReplayableBody(order, frozenset(names))


def _only_assignments_and_ifs(body: list[ast.Stmt] | None) -> bool:
    """The statement kinds ``_statements_ok`` accepts (checked first, so a
    body holding a loop is rejected without gathering its writes)."""
    for stmt in body or ():
        t = type(stmt)
        if t is ast.If:
            if not all(_only_assignments_and_ifs(clause) for _, clause in stmt.clauses):
                return False
            if not _only_assignments_and_ifs(stmt.else_body):
                return False
        elif t is not ast.Assign:
            return False
    return True


def _statements_ok(body: list[ast.Stmt], frozen: set[str], names: set[str]) -> bool:
    for stmt in body:
        t = type(stmt)
        if t is ast.Assign:
            if stmt.display or stmt.multi or len(stmt.targets) != 1:
                return False
            if type(stmt.targets[0]) is not ast.Ident:
                return False
            if not _expr_ok(stmt.value):
                return False
            expr_reads(stmt.value, names)
        elif t is ast.If:
            for cond, clause in stmt.clauses:
                if not _expr_ok(cond) or expr_reads(cond, set()) & frozen:
                    return False
                expr_reads(cond, names)
                if not _statements_ok(clause, frozen, names):
                    return False
            if stmt.else_body and not _statements_ok(stmt.else_body, frozen, names):
                return False
        else:
            return False
    return True


def _expr_ok(node: ast.Expr) -> bool:
    """Operators, literals, names and ``name(args)``."""
    t = type(node)
    if t in _PLAIN_EXPRS:
        return True
    if t is ast.Binary:
        return _expr_ok(node.left) and _expr_ok(node.right)
    if t is ast.Unary or t is ast.Postfix:
        return _expr_ok(node.operand)
    if t is ast.Range:
        return (_expr_ok(node.start) and _expr_ok(node.stop)
                and (node.step is None or _expr_ok(node.step)))
    if t is ast.Index:
        return node.kind == "()" and _expr_ok(node.base) and all(_expr_ok(a) for a in node.args)
    return False
