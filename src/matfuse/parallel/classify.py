"""parfor variable classification (MATLAB's rules, checked before the loop runs).

Every name a ``parfor`` body uses is one of:

* the **loop variable** (never assigned in the body);
* a **sliced** variable: always indexed ``X(..., i+k, ...)`` / ``X{...}`` with
  the same subscripts, exactly one of them the loop variable (optionally
  plus or minus a constant or broadcast name); an *output* when assigned;
* a **reduction** variable: only ever updated as ``X = X op e`` (``+ - * .* &
  |``), ``X = e op X``, ``X = [X, e]`` / ``[X; e]`` / ``[e, X]``,
  ``X = min(X, e)`` / ``max`` / ``union`` / ``intersect``, and never read
  otherwise;
* a **temporary**: assigned in the body (cleared at each iteration's start,
  not returned);
* a **broadcast** variable (or a function): read only. Which one is decided
  when the loop runs, by whether the client workspace has the name.

A name that fits none (indexed assignment with another subscript, a sliced
output read with other subscripts, a reduction variable read elsewhere)
raises ``MATLAB:parfor:variable_not_classified`` at compile time, as MATLAB
does before anything runs. Reduction statements are rewritten into calls of
the hidden ``_parfor_contribute`` builtin that records each iteration's
contribution (``parallel/reduction.py`` folds them in iteration order).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from matfuse.errors import MatlabError, Span
from matfuse.lang import ast
from matfuse.parallel.reduction_forms import (
    Reduction, free_of, is_name, reduction_of, rewrite_reductions,
)
from matfuse.vm.names import expr_reads
from matfuse.vm.unparse import unparse

# Functions that read or write the caller's workspace by name.
TRANSPARENCY_FUNCTIONS = ("eval", "evalin", "assignin", "evalc", "clear", "load", "who", "whos")


@dataclass(frozen=True)
class SliceForm:
    """How a sliced variable is indexed: ``brace`` (``{}``), the number of
    subscripts, which one holds the loop variable, and its offset
    expression (``i + k``: ``k``; ``i - k``: ``-k``), None for none."""

    brace: bool
    nsub: int
    dim: int
    offset: ast.Expr | None
    offset_sign: int = 1


@dataclass
class ParforPlan:
    """What the client and workers need to run one parfor statement."""

    loop_var: str
    body: list[ast.Stmt]
    sliced: dict[str, SliceForm] = field(default_factory=dict)
    sliced_outputs: set[str] = field(default_factory=set)
    reductions: dict[str, Reduction] = field(default_factory=dict)
    temporaries: set[str] = field(default_factory=set)
    # Names only read: broadcast variables, or functions (decided at run time).
    reads: set[str] = field(default_factory=set)


def classification_error(name: str, span: Span | None) -> MatlabError:
    return MatlabError("MATLAB:parfor:variable_not_classified",
                       f"The variable {name} in a parfor cannot be classified.", span)


# --------------------------------------------------------------- occurrences
@dataclass
class _Use:
    kind: str          # read | index_read | assign | index_assign | reduction
    node: ast.Expr | None
    span: Span


class _Collector:
    """Walks a parfor body and records every use of every name."""

    def __init__(self, loop_var: str):
        self.loop_var = loop_var
        self.uses: dict[str, list[_Use]] = {}
        self.reduction_stmts: dict[int, tuple[str, Reduction, list[ast.Expr]]] = {}
        self.inner_loop_vars: set[str] = set()

    def add(self, name: str, kind: str, node: ast.Expr | None, span: Span) -> None:
        self.uses.setdefault(name, []).append(_Use(kind, node, span))

    def body(self, stmts: list[ast.Stmt] | None) -> None:
        for s in stmts or ():
            self.stmt(s)

    def stmt(self, s: ast.Stmt) -> None:
        t = type(s)
        if t is ast.ExprStmt:
            self.expr(s.expr, s.span)
        elif t is ast.Assign:
            self.assign(s)
        elif t is ast.Command:
            if s.name in TRANSPARENCY_FUNCTIONS:
                raise _transparency(s.name, s.span)
        elif t is ast.If:
            for cond, b in s.clauses:
                self.expr(cond, s.span)
                self.body(b)
            self.body(s.else_body)
        elif t is ast.For:
            if s.parfor:
                raise MatlabError("MATLAB:parfor:nested_parfor",
                                  "PARFOR loops cannot be nested directly in another PARFOR "
                                  "loop; call a function that contains the inner loop.", s.span)
            self.expr(s.iterable, s.span)
            if isinstance(s.var, ast.Ident):
                self.inner_loop_vars.add(s.var.name)
                self.add(s.var.name, "assign", None, s.span)
            self.body(s.body)
        elif t is ast.While:
            self.expr(s.cond, s.span)
            self.body(s.body)
        elif t is ast.Switch:
            self.expr(s.subject, s.span)
            for value, b in s.cases:
                self.expr(value, s.span)
                self.body(b)
            self.body(s.otherwise)
        elif t is ast.TryCatch:
            self.body(s.body)
            if s.ident:
                self.add(s.ident, "assign", None, s.span)
            self.body(s.catch_body)
        elif t is ast.Break or t is ast.Return:
            word = "BREAK" if t is ast.Break else "RETURN"
            raise MatlabError(f"MATLAB:parfor:illegal_{word.lower()}",
                              f"Illegal use of {word} in a PARFOR loop.", s.span)
        elif t is ast.Global or t is ast.Persistent:
            word = "GLOBAL" if t is ast.Global else "PERSISTENT"
            raise MatlabError(f"MATLAB:parfor:{word.lower()}_declaration",
                              f"{word} declarations cannot appear in a PARFOR loop.", s.span)

    def assign(self, s: ast.Assign) -> None:
        reduction = reduction_of(s) if len(s.targets) == 1 and not s.multi else None
        if reduction is not None:
            name, red, operands = reduction
            self.reduction_stmts[id(s)] = reduction
            self.add(name, "reduction", None, s.span)
            for e in operands:
                self.expr(e, s.span)
            return
        self.expr(s.value, s.span)
        for tg in s.targets:
            self.target(tg, s.span)

    def target(self, tg: ast.Expr, span: Span) -> None:
        if isinstance(tg, ast.Tilde):
            return
        if isinstance(tg, ast.Ident):
            self.add(tg.name, "assign", None, span)
            return
        # Walk to the first-level index on the root variable.
        chain = []
        node = tg
        while isinstance(node, (ast.Index, ast.Field, ast.DynField)):
            chain.append(node)
            node = node.base
        if not isinstance(node, ast.Ident):
            return
        first = chain[-1]
        if isinstance(first, ast.Index):
            self.add(node.name, "index_assign", first, span)
        else:
            self.add(node.name, "field_assign", first, span)
        for link in chain:
            if isinstance(link, ast.Index):
                for a in link.args:
                    self.expr(a, span)
            elif isinstance(link, ast.DynField):
                self.expr(link.name_expr, span)

    def expr(self, e: ast.Expr | None, span: Span) -> None:
        if e is None:
            return
        t = type(e)
        if t is ast.Ident:
            self.add(e.name, "read", None, span)
        elif t is ast.Index:
            if isinstance(e.base, ast.Ident):
                name = e.base.name
                if name in TRANSPARENCY_FUNCTIONS:
                    raise _transparency(name, span)
                self.add(name, "index_read", e, span)
            else:
                self.expr(e.base, span)
            for a in e.args:
                self.expr(a, span)
        elif t is ast.AnonFunc:
            for name in sorted(expr_reads(e.body, set()) - set(e.params)):
                self.add(name, "read", None, span)
        else:
            for child in _children(e):
                self.expr(child, span)


def _children(e: ast.Expr) -> list[ast.Expr]:
    t = type(e)
    if t is ast.Binary:
        return [e.left, e.right]
    if t is ast.Unary or t is ast.Postfix:
        return [e.operand]
    if t is ast.Range:
        return [x for x in (e.start, e.step, e.stop) if x is not None]
    if t is ast.Field:
        return [e.base]
    if t is ast.DynField:
        return [e.base, e.name_expr]
    if t is ast.Matrix or t is ast.CellLit:
        return [x for row in e.rows for x in row]
    return []


def _transparency(name: str, span: Span) -> MatlabError:
    return MatlabError("MATLAB:parfor:transparency",
                       f"Transparency violation error: '{name}' cannot be used in a PARFOR "
                       f"loop because it reads or writes the workspace by name.", span)


# ------------------------------------------------------------ classification
def _slice_form(index: ast.Index, loop_var: str, assigned: set[str]) -> SliceForm | None:
    """The SliceForm of ``X(args)`` when exactly one subscript is
    ``i``, ``i+k``, ``k+i`` or ``i-k`` (k a number or a broadcast name)
    and the others do not use the loop variable."""
    found = None
    for pos, a in enumerate(index.args):
        if free_of(a, loop_var):
            continue
        if found is not None:
            return None
        form = _loop_offset(a, loop_var, assigned)
        if form is None:
            return None
        found = (pos, form)
    if found is None:
        return None
    pos, (offset, sign) = found
    return SliceForm(index.kind == "{}", len(index.args), pos, offset, sign)


def _loop_offset(a: ast.Expr, loop_var: str,
                 assigned: set[str]) -> tuple[ast.Expr | None, int] | None:
    if is_name(a, loop_var):
        return None, 1
    if type(a) is ast.Binary and a.op in ("+", "-"):
        def constant(e: ast.Expr) -> bool:
            return type(e) is ast.Number or (type(e) is ast.Ident and e.name != loop_var
                                            and e.name not in assigned)
        if is_name(a.left, loop_var) and constant(a.right):
            return a.right, 1 if a.op == "+" else -1
        if a.op == "+" and is_name(a.right, loop_var) and constant(a.left):
            return a.left, 1
    return None


def _same_subscripts(uses: list[_Use]) -> bool:
    texts = {(u.node.kind, tuple(unparse(a) for a in u.node.args)) for u in uses}
    return len(texts) == 1


def classify(loop_var: str, body: list[ast.Stmt]) -> ParforPlan:
    """Classify the names of a parfor body; raises MATLAB's errors for
    names that fit no class. The plan's body has reductions rewritten."""
    col = _Collector(loop_var)
    col.body(body)
    plan = ParforPlan(loop_var, body)
    assigned = {n for n, uses in col.uses.items()
                if any(u.kind in ("assign", "index_assign", "field_assign", "reduction")
                       for u in uses)}
    for name, uses in col.uses.items():
        kinds = {u.kind for u in uses}
        first = uses[0].span
        if name == loop_var:
            if kinds - {"read", "index_read"}:
                where = next(u.span for u in uses if u.kind not in ("read", "index_read"))
                raise MatlabError("MATLAB:parfor:loop_variable_set",
                                  f"The PARFOR loop variable '{loop_var}' cannot be assigned "
                                  f"in the loop body.", where)
            continue
        if "reduction" in kinds and "assign" in kinds:
            # Plainly assigned too: a temporary; ``x = x + e`` is then ordinary.
            plan.temporaries.add(name)
            for key in [k for k, hit in col.reduction_stmts.items() if hit[0] == name]:
                del col.reduction_stmts[key]
            continue
        if "reduction" in kinds:
            if kinds != {"reduction"}:
                raise classification_error(name, first)
            forms = {red for n, red, _ in col.reduction_stmts.values() if n == name}
            if len({(r.kind, r.left) for r in forms}) > 1 or (
                    len(forms) > 1 and not {r.op for r in forms} <= {"+", "-"}):
                raise classification_error(name, first)
            plan.reductions[name] = sorted(forms, key=lambda r: r.op != "+")[0]
            continue
        if "index_assign" in kinds and "assign" not in kinds:
            indexed = [u for u in uses if u.kind in ("index_assign", "index_read")]
            if "read" in kinds or "field_assign" in kinds or not _same_subscripts(indexed):
                raise classification_error(name, first)
            form = _slice_form(indexed[0].node, loop_var, assigned)
            if form is None:
                raise classification_error(name, first)
            plan.sliced[name] = form
            plan.sliced_outputs.add(name)
            continue
        if "field_assign" in kinds and "assign" not in kinds:
            raise classification_error(name, first)
        if name in assigned:
            plan.temporaries.add(name)
            continue
        # Read only: sliced input when always indexed with one slice form.
        if kinds == {"index_read"} and _same_subscripts(uses):
            form = _slice_form(uses[0].node, loop_var, assigned)
            if form is not None:
                plan.sliced[name] = form
                continue
        plan.reads.add(name)
    plan.body = rewrite_reductions(body, col.reduction_stmts)
    return plan
