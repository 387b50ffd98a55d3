"""Compact s-expression rendering of the AST, for tests and ``--dump-ast``.

Examples: ``x = -2^2;`` renders as ``(= x (u- (^ 2 2)));`` and
``[a, ~] = f(x(end))`` as ``(= [a ~] (() f (() x end)))``.
"""

from __future__ import annotations

from matfuse.lang import ast


def to_sexpr(node: ast.Node | list) -> str:
    """Render a node (or a statement list) as an s-expression string."""
    if isinstance(node, list):
        return " ".join(to_sexpr(item) for item in node)
    renderer = _RENDERERS.get(type(node))
    if renderer is None:
        raise TypeError(f"no s-expression form for {type(node).__name__}")
    return renderer(node)


def _number(node: ast.Number) -> str:
    value = node.value
    if isinstance(value, complex):
        text = _real(value.imag) + "i"
    else:
        text = _real(value)
    return f"{text}:{node.int_class}" if node.int_class else text


def _real(value: float) -> str:
    return str(int(value)) if value.is_integer() else repr(value)


def _string(node: ast.String) -> str:
    if node.kind == "string":
        return '"' + node.value.replace('"', '""') + '"'
    return "'" + node.value.replace("'", "''") + "'"


def _rows(rows: list[list[ast.Expr]]) -> str:
    return "; ".join(" ".join(to_sexpr(e) for e in row) for row in rows)


def _body(label: str, stmts: list[ast.Stmt]) -> str:
    return f"({label} {to_sexpr(stmts)})" if stmts else f"({label})"


def _terminated(text: str, display: bool) -> str:
    return text if display else text + ";"


def _assign(node: ast.Assign) -> str:
    if node.multi:
        target = "[" + " ".join(to_sexpr(t) for t in node.targets) + "]"
    else:
        target = to_sexpr(node.targets[0])
    return _terminated(f"(= {target} {to_sexpr(node.value)})", node.display)


def _if(node: ast.If) -> str:
    parts = []
    for i, (cond, body) in enumerate(node.clauses):
        label = "if" if i == 0 else "elseif"
        parts.append(_body(f"{label} {to_sexpr(cond)}", body))
    if node.else_body is not None:
        parts.append(_body("else", node.else_body))
    return " ".join(parts)


def _switch(node: ast.Switch) -> str:
    parts = [f"(switch {to_sexpr(node.subject)}"]
    parts += [_body(f"case {to_sexpr(value)}", body) for value, body in node.cases]
    if node.otherwise is not None:
        parts.append(_body("otherwise", node.otherwise))
    return " ".join(parts) + ")"


def _function(node: ast.Function) -> str:
    head = f"(function [{' '.join(node.outputs)}] {node.name}({' '.join(node.params)})"
    inner = [to_sexpr(node.body)] if node.body else []
    inner += [_function(f) for f in node.nested]
    return " ".join([head] + inner) + ")"


def _program(node: ast.Program) -> str:
    parts = [to_sexpr(node.body)] if node.body else []
    parts += [_function(f) for f in node.functions]
    return " ".join(parts)


_RENDERERS = {
    ast.Number: _number,
    ast.String: _string,
    ast.Ident: lambda n: n.name,
    ast.Colon: lambda n: ":",
    ast.End: lambda n: "end",
    ast.Tilde: lambda n: "~",
    ast.Binary: lambda n: f"({n.op} {to_sexpr(n.left)} {to_sexpr(n.right)})",
    ast.Unary: lambda n: f"(u{n.op} {to_sexpr(n.operand)})",
    ast.Postfix: lambda n: f"({n.op} {to_sexpr(n.operand)})",
    ast.Range: lambda n: (
        f"(: {to_sexpr(n.start)} {to_sexpr(n.stop)})" if n.step is None
        else f"(: {to_sexpr(n.start)} {to_sexpr(n.step)} {to_sexpr(n.stop)})"),
    ast.Index: lambda n: f"({n.kind} {to_sexpr(n.base)}"
                         + "".join(" " + to_sexpr(a) for a in n.args) + ")",
    ast.Field: lambda n: f"(. {to_sexpr(n.base)} {n.name})",
    ast.DynField: lambda n: f"(.() {to_sexpr(n.base)} {to_sexpr(n.name_expr)})",
    ast.Matrix: lambda n: f"[{_rows(n.rows)}]",
    ast.CellLit: lambda n: "{" + _rows(n.rows) + "}",
    ast.AnonFunc: lambda n: f"(@({' '.join(n.params)}) {to_sexpr(n.body)})",
    ast.FuncHandle: lambda n: f"@{n.name}",
    ast.ExprStmt: lambda n: _terminated(to_sexpr(n.expr), n.display),
    ast.Assign: _assign,
    ast.Command: lambda n: _terminated(
        "(cmd " + " ".join([n.name] + [repr(a) for a in n.args]) + ")", n.display),
    ast.If: _if,
    ast.For: lambda n: _body(
        f"{'parfor' if n.parfor else 'for'} {to_sexpr(n.var)} {to_sexpr(n.iterable)}", n.body),
    ast.While: lambda n: _body(f"while {to_sexpr(n.cond)}", n.body),
    ast.Break: lambda n: "(break)",
    ast.Continue: lambda n: "(continue)",
    ast.Return: lambda n: "(return)",
    ast.Switch: _switch,
    ast.TryCatch: lambda n: _body("try", n.body)[:-1] + " "
                            + _body(f"catch {n.ident or '_'}", n.catch_body) + ")",
    ast.Global: lambda n: f"(global {' '.join(n.names)})",
    ast.Persistent: lambda n: f"(persistent {' '.join(n.names)})",
    ast.Function: _function,
    ast.Program: _program,
}
