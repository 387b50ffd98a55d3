"""AST expression -> MATLAB source text, the way MATLAB shows anonymous
functions (``@(x)x.^2+a``: no spaces around operators)."""

from __future__ import annotations

from matfuse.lang import ast

_PREC = {"||": 1, "&&": 2, "|": 3, "&": 4, "==": 5, "~=": 5, "<": 5, "<=": 5,
         ">": 5, ">=": 5, ":": 6, "+": 7, "-": 7, "*": 8, "/": 8, "\\": 8,
         ".*": 8, "./": 8, ".\\": 8, "^": 10, ".^": 10}


def number_text(value: float | complex) -> str:
    if isinstance(value, complex):
        return f"{number_text(value.imag)}i"
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Inf" if value > 0 else "-Inf"
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _prec(node: ast.Expr) -> int:
    if isinstance(node, ast.Binary):
        return _PREC.get(node.op, 0)
    if isinstance(node, ast.Range):
        return 6
    if isinstance(node, ast.Unary):
        return 9
    return 11


def _wrap(node: ast.Expr, min_prec: int) -> str:
    text = unparse(node)
    return f"({text})" if _prec(node) < min_prec else text


def _rows(rows: list[list[ast.Expr]]) -> str:
    return ";".join(",".join(unparse(e) for e in row) for row in rows)


def unparse(node: ast.Expr) -> str:
    """Compact MATLAB text of an expression."""
    t = type(node)
    if t is ast.Number:
        return number_text(node.value)
    if t is ast.String:
        if node.kind == "string":
            return '"' + node.value.replace('"', '""') + '"'
        return "'" + node.value.replace("'", "''") + "'"
    if t is ast.Ident:
        return node.name
    if t is ast.Colon:
        return ":"
    if t is ast.End:
        return "end"
    if t is ast.Binary:
        p = _PREC.get(node.op, 0)
        return f"{_wrap(node.left, p)}{node.op}{_wrap(node.right, p + 1)}"
    if t is ast.Unary:
        return f"{node.op}{_wrap(node.operand, 9)}"
    if t is ast.Postfix:
        return f"{_wrap(node.operand, 11)}{node.op}"
    if t is ast.Range:
        parts = [node.start] + ([node.step] if node.step is not None else []) + [node.stop]
        return ":".join(_wrap(p, 7) for p in parts)
    if t is ast.Index:
        args = ",".join(unparse(a) for a in node.args)
        open_, close = ("(", ")") if node.kind == "()" else ("{", "}")
        return f"{_wrap(node.base, 11)}{open_}{args}{close}"
    if t is ast.Field:
        return f"{_wrap(node.base, 11)}.{node.name}"
    if t is ast.DynField:
        return f"{_wrap(node.base, 11)}.({unparse(node.name_expr)})"
    if t is ast.Matrix:
        return f"[{_rows(node.rows)}]"
    if t is ast.CellLit:
        return "{" + _rows(node.rows) + "}"
    if t is ast.AnonFunc:
        return f"@({','.join(node.params)}){unparse(node.body)}"
    if t is ast.FuncHandle:
        return f"@{node.name}"
    if t is ast.Tilde:
        return "~"
    return "?"
