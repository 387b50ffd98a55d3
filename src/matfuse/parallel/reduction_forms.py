"""Reduction statements of a parfor body: recognising ``X = X op e`` and
its other forms (``classify.py`` lists them), and rewriting each into a
``_parfor_contribute('X', op, e)`` call that records the contribution."""

from __future__ import annotations

from dataclasses import dataclass

from matfuse.lang import ast
from matfuse.vm.names import expr_reads

REDUCTION_OPS = ("+", "-", "*", ".*", "&", "|")
REDUCTION_FUNCTIONS = ("min", "max", "union", "intersect")
CONTRIBUTE = "_parfor_contribute"


@dataclass(frozen=True)
class Reduction:
    """``kind``: ``op`` (binary operator ``op``), ``concat`` (``op`` is
    ``h`` or ``v``) or ``call`` (``op`` is the function name); ``left``: the
    variable is the left operand / first element / first argument."""

    kind: str
    op: str
    left: bool


def is_name(e: ast.Expr, name: str) -> bool:
    return type(e) is ast.Ident and e.name == name


def free_of(e: ast.Expr, name: str) -> bool:
    return name not in expr_reads(e, set())


def reduction_of(s: ast.Assign) -> tuple[str, Reduction, list[ast.Expr]] | None:
    """``(name, reduction, other operands)`` when ``s`` is a reduction
    statement ``X = X op e`` (and the forms listed in the module doc)."""
    tg = s.targets[0]
    if type(tg) is not ast.Ident:
        return None
    x = tg.name
    v = s.value
    if type(v) is ast.Binary and v.op in REDUCTION_OPS:
        if is_name(v.left, x) and free_of(v.right, x):
            return x, Reduction("op", v.op, True), [v.right]
        if is_name(v.right, x) and free_of(v.left, x) and v.op != "-":
            return x, Reduction("op", v.op, False), [v.left]
        return None
    if type(v) is ast.Matrix:
        rows = v.rows
        if len(rows) == 1 and len(rows[0]) >= 2:
            row = rows[0]
            left = is_name(row[0], x)
            others = row[1:] if left else row[:-1] if is_name(row[-1], x) else None
            if others is not None and all(free_of(o, x) for o in others):
                return x, Reduction("concat", "h", left), [ast.Matrix(v.span, [others])]
        if len(rows) >= 2:
            left = len(rows[0]) == 1 and is_name(rows[0][0], x)
            right = len(rows[-1]) == 1 and is_name(rows[-1][0], x)
            others = rows[1:] if left else rows[:-1] if right else None
            if others is not None and all(free_of(o, x) for r in others for o in r):
                return x, Reduction("concat", "v", left), [ast.Matrix(v.span, others)]
        return None
    if (type(v) is ast.Index and v.kind == "()" and type(v.base) is ast.Ident
            and v.base.name in REDUCTION_FUNCTIONS and len(v.args) == 2):
        a, b = v.args
        if is_name(a, x) and free_of(b, x):
            return x, Reduction("call", v.base.name, True), [b]
        if is_name(b, x) and free_of(a, x):
            return x, Reduction("call", v.base.name, False), [a]
    return None



def rewrite_reductions(stmts: list[ast.Stmt] | None,
                        found: dict[int, tuple[str, Reduction, list[ast.Expr]]]
                        ) -> list[ast.Stmt] | None:
    """The body with each reduction statement replaced by
    ``_parfor_contribute('X', operands...)`` (a statement printing nothing)."""
    if stmts is None:
        return None
    out: list[ast.Stmt] = []
    for s in stmts:
        hit = found.get(id(s))
        if hit is not None:
            name, red, operands = hit
            call = ast.Index(s.span, ast.Ident(s.span, CONTRIBUTE),
                             [ast.String(s.span, name), ast.String(s.span, red.op)]
                             + list(operands))
            out.append(ast.ExprStmt(s.span, call, False))
            continue
        t = type(s)
        if t is ast.If:
            s = ast.If(s.span, [(c, rewrite_reductions(b, found)) for c, b in s.clauses],
                       rewrite_reductions(s.else_body, found))
        elif t is ast.For:
            s = ast.For(s.span, s.var, s.iterable, rewrite_reductions(s.body, found), s.parfor)
        elif t is ast.While:
            s = ast.While(s.span, s.cond, rewrite_reductions(s.body, found))
        elif t is ast.Switch:
            s = ast.Switch(s.span, s.subject,
                           [(v, rewrite_reductions(b, found)) for v, b in s.cases],
                           rewrite_reductions(s.otherwise, found))
        elif t is ast.TryCatch:
            s = ast.TryCatch(s.span, rewrite_reductions(s.body, found), s.ident,
                             rewrite_reductions(s.catch_body, found))
        out.append(s)
    return out
