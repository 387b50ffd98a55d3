"""Name analysis over the AST: which variables a node reads and writes.

Used by the compiler for liveness (last use of each variable per statement,
kept on compiled statements for the fusion engine), for anonymous-function
capture lists, and to find ``global``/``persistent`` declarations.
"""

from __future__ import annotations

from typing import Callable

from matfuse.lang import ast


def expr_reads(node: ast.Expr | None, out: set[str]) -> set[str]:
    """Add every identifier ``node`` may read (variables or function names)."""
    if node is None:
        return out
    t = type(node)
    if t is ast.Ident:
        out.add(node.name)
    elif t is ast.Binary:
        expr_reads(node.left, out)
        expr_reads(node.right, out)
    elif t is ast.Unary or t is ast.Postfix:
        expr_reads(node.operand, out)
    elif t is ast.Range:
        expr_reads(node.start, out)
        expr_reads(node.step, out)
        expr_reads(node.stop, out)
    elif t is ast.Index:
        expr_reads(node.base, out)
        for a in node.args:
            expr_reads(a, out)
    elif t is ast.Field:
        expr_reads(node.base, out)
    elif t is ast.DynField:
        expr_reads(node.base, out)
        expr_reads(node.name_expr, out)
    elif t is ast.Matrix or t is ast.CellLit:
        for row in node.rows:
            for e in row:
                expr_reads(e, out)
    elif t is ast.AnonFunc:
        inner = expr_reads(node.body, set())
        out.update(inner - set(node.params))
    elif t is ast.SuperRef:
        out.add(node.name)
    return out


def target_root(target: ast.Expr) -> str | None:
    """The variable an assignment target writes (None for ``~``)."""
    while not isinstance(target, ast.Ident):
        if isinstance(target, (ast.Index, ast.Field, ast.DynField)):
            target = target.base
        else:
            return None
    return target.name


def _target_reads(target: ast.Expr, out: set[str]) -> None:
    """Indexed targets read their root variable and their index expressions."""
    if isinstance(target, ast.Ident):
        return
    if isinstance(target, ast.Index):
        for a in target.args:
            expr_reads(a, out)
        base = target.base
    elif isinstance(target, ast.DynField):
        expr_reads(target.name_expr, out)
        base = target.base
    elif isinstance(target, ast.Field):
        base = target.base
    else:
        return
    if isinstance(base, ast.Ident):
        out.add(base.name)
    else:
        _target_reads(base, out)


def stmt_reads_writes(stmt: ast.Stmt) -> tuple[set[str], set[str]]:
    """(names read, names written) by one statement, including nested bodies."""
    reads: set[str] = set()
    writes: set[str] = set()
    walk_stmt(stmt, reads, writes, walk_body)
    return reads, writes


COMPOUND = (ast.If, ast.For, ast.While, ast.Switch, ast.TryCatch)


def walk_body(body: list[ast.Stmt] | None, reads: set[str], writes: set[str]) -> None:
    """Add the names every statement of ``body`` reads and writes."""
    for s in body or ():
        walk_stmt(s, reads, writes, walk_body)


BodyWalker = Callable[[list[ast.Stmt] | None, set[str], set[str]], None]


def walk_stmt(s: ast.Stmt, reads: set[str], writes: set[str],
              body_walker: BodyWalker) -> None:
    """Add the names ``s`` reads and writes; nested bodies go to ``body_walker``
    (``walk_body``, or the indexing walker of ``statement_facts``)."""
    t = type(s)
    if t is ast.ExprStmt:
        expr_reads(s.expr, reads)
    elif t is ast.Assign:
        expr_reads(s.value, reads)
        for tg in s.targets:
            root = target_root(tg)
            if root is not None:
                writes.add(root)
            _target_reads(tg, reads)
    elif t is ast.If:
        for cond, body in s.clauses:
            expr_reads(cond, reads)
            body_walker(body, reads, writes)
        body_walker(s.else_body, reads, writes)
    elif t is ast.For:
        expr_reads(s.iterable, reads)
        root = target_root(s.var)
        if root is not None:
            writes.add(root)
        body_walker(s.body, reads, writes)
    elif t is ast.While:
        expr_reads(s.cond, reads)
        body_walker(s.body, reads, writes)
    elif t is ast.Switch:
        expr_reads(s.subject, reads)
        for value, body in s.cases:
            expr_reads(value, reads)
            body_walker(body, reads, writes)
        body_walker(s.otherwise, reads, writes)
    elif t is ast.TryCatch:
        body_walker(s.body, reads, writes)
        if s.ident:
            writes.add(s.ident)
        body_walker(s.catch_body, reads, writes)
    elif t is ast.Global or t is ast.Persistent:
        writes.update(s.names)


def declared_names(body: list[ast.Stmt], kind: type) -> set[str]:
    """Names declared by ``global`` (kind=ast.Global) or ``persistent`` anywhere in body."""
    found: set[str] = set()

    def visit(stmts: list[ast.Stmt] | None) -> None:
        for s in stmts or ():
            t = type(s)
            if t is kind:
                found.update(s.names)
            elif t is ast.If:
                for _, b in s.clauses:
                    visit(b)
                visit(s.else_body)
            elif t is ast.For or t is ast.While:
                visit(s.body)
            elif t is ast.Switch:
                for _, b in s.cases:
                    visit(b)
                visit(s.otherwise)
            elif t is ast.TryCatch:
                visit(s.body)
                visit(s.catch_body)

    visit(body)
    return found


def contains_end(node: ast.Expr) -> bool:
    """True when ``node`` has an ``end`` bound by the enclosing index (not by a
    nested index expression, which binds its own)."""
    t = type(node)
    if t is ast.End:
        return True
    if t is ast.Index:
        # end inside node.args binds to this inner index, unless the inner
        # base is a function call... the base itself may contain end.
        return contains_end(node.base)
    if t is ast.Binary:
        return contains_end(node.left) or contains_end(node.right)
    if t is ast.Unary or t is ast.Postfix:
        return contains_end(node.operand)
    if t is ast.Range:
        return (contains_end(node.start) or contains_end(node.stop)
                or (node.step is not None and contains_end(node.step)))
    if t is ast.Field:
        return contains_end(node.base)
    if t is ast.DynField:
        return contains_end(node.base) or contains_end(node.name_expr)
    if t is ast.Matrix or t is ast.CellLit:
        return any(contains_end(e) for row in node.rows for e in row)
    return False
