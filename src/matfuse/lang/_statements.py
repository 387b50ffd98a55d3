"""Statement half of the MATLAB parser: simple statements and control blocks.

Also tracks, per function scope, which names have been assigned so far: the
lexer asks for it to decide command syntax (``x -1`` is a command only when
``x`` is not a variable).
"""

from __future__ import annotations

from collections.abc import Iterable

from matfuse.errors import MatlabSyntaxError
from matfuse.lang import ast
from matfuse.lang._expressions import BAD_EQUALS, ExpressionParser
from matfuse.lang._tokens import CMD, EOF, ID, NL, Token
from matfuse.lang.lexer import Lexer

MISSING_END = "At least one END is missing: the statement may begin here."
BAD_TARGET = ("The expression to the left of the equals sign is not a valid "
              "target for an assignment.")

_SEPARATORS = frozenset({",", ";", NL})
_END = frozenset({"end", "function"})
_IF_BODY_END = frozenset({"elseif", "else", "end", "function"})
_CASE_BODY_END = frozenset({"case", "otherwise", "end", "function"})
_TRY_BODY_END = frozenset({"catch", "end", "function"})
# Keywords that may directly follow a statement without a separator.
_STATEMENT_FOLLOWERS = frozenset({
    "end", "else", "elseif", "case", "otherwise", "catch", "function",
})


class StatementParser(ExpressionParser):
    """Statements and blocks; tracks assigned names for command syntax."""

    def __init__(self, source: str, file: str | None,
                 variables: Iterable[str] = ()) -> None:
        # One set of assigned names per function scope being parsed.
        self._scopes: list[set[str]] = [set(variables)]
        super().__init__(Lexer(source, file, self._is_variable))

    def _is_variable(self, name: str) -> bool:
        # A class body (outside methods) has no command syntax.
        return name in self._scopes[-1] or self._class_body

    _class_body = False

    def _assigned(self, name: str) -> None:
        self._scopes[-1].add(name)

    def _skip_separators(self) -> None:
        while self.tok.kind in _SEPARATORS:
            self._advance()

    # ---------------------------------------------------------------- blocks
    def _block(self, terminators: frozenset[str]) -> list[ast.Stmt]:
        """Statements up to (not including) a terminator keyword or EOF."""
        body: list[ast.Stmt] = []
        while True:
            kind = self.tok.kind
            if kind in _SEPARATORS:
                self._advance()
                continue
            if kind == EOF or kind in terminators:
                return body
            body.append(self._statement())

    def _statement(self) -> ast.Stmt:
        tok = self.tok
        kind = tok.kind
        handler = _STATEMENT_HANDLERS.get(kind)
        if handler is not None:
            return handler(self)
        if kind == CMD:
            self._advance()
            name, args = tok.value
            return ast.Command(self._span(tok), name, args, self._end_statement())
        if kind == "function":
            raise self._error("Function definitions are not permitted in this context.", tok)
        if kind == "classdef":
            # a class is defined only at the start of its own file
            raise self._unexpected(tok)
        if kind == "spmd":
            raise self._error(f'"{kind}" is not supported by matfuse.', tok)
        return self._expression_statement()

    def _end_statement(self) -> bool:
        """Consume the statement terminator; returns the display flag."""
        tok = self.tok
        kind = tok.kind
        if kind == ";":
            self._advance()
            return False
        if kind == "," or kind == NL:
            self._advance()
            return True
        if kind == EOF or kind in _STATEMENT_FOLLOWERS:
            return True
        raise self._after_expression(tok)

    def _expect_end(self, opener: Token) -> None:
        if self.tok.kind != "end":
            raise self._error(MISSING_END, opener)
        self._advance()

    # ----------------------------------------------------- simple statements
    def _expression_statement(self) -> ast.Stmt:
        start = self.tok
        span = self._span(start)
        tildes_before = len(self._tildes)
        if start.kind == "[":
            self._tilde_ok_pos = start.pos
        expr = self.parse_expr()
        self._tilde_ok_pos = -1
        if self.tok.kind == "=":
            multi = start.kind == "[" and isinstance(expr, ast.Matrix)
            targets = self._targets(expr, multi, start)
            for target in targets:
                name = root_name(target)
                if name is not None:
                    self._assigned(name)
            self._advance()
            value = self.parse_expr()
            return ast.Assign(span, targets, value, self._end_statement(), multi)
        if len(self._tildes) > tildes_before:
            tilde = self._tildes[tildes_before]
            raise MatlabSyntaxError(
                "Parse error at '~': usage might be invalid MATLAB syntax.", tilde.span)
        return ast.ExprStmt(span, expr, self._end_statement())

    def _targets(self, expr: ast.Expr, multi: bool, start: Token) -> list[ast.Expr]:
        if not multi:
            if root_name(expr) is None:
                raise self._error(BAD_TARGET, start)
            return [expr]
        if len(expr.rows) != 1:
            raise self._error(BAD_TARGET, start)
        targets = expr.rows[0]
        for target in targets:
            if not isinstance(target, ast.Tilde) and root_name(target) is None:
                raise MatlabSyntaxError(BAD_TARGET, target.span)
        return targets

    def _simple_keyword(self) -> ast.Stmt:
        tok = self._advance()
        node_type = {"break": ast.Break, "continue": ast.Continue,
                     "return": ast.Return}[tok.kind]
        node = node_type(self._span(tok))
        self._end_statement()
        return node

    def _declaration(self) -> ast.Stmt:
        """``global a b`` / ``persistent x``."""
        tok = self._advance()
        names: list[str] = []
        while self.tok.kind == ID:
            names.append(self._advance().text)
        if self.tok.kind == "=":
            raise self._error(BAD_EQUALS, self.tok)
        for name in names:
            self._assigned(name)
        node_type = ast.Global if tok.kind == "global" else ast.Persistent
        node = node_type(self._span(tok), names)
        self._end_statement()
        return node

    # ------------------------------------------------------- control blocks
    def _if(self) -> ast.Stmt:
        start = self._advance()
        clauses = [(self.parse_expr(), self._block(_IF_BODY_END))]
        else_body = None
        while True:
            kind = self.tok.kind
            if kind == "elseif":
                self._advance()
                clauses.append((self.parse_expr(), self._block(_IF_BODY_END)))
            elif kind == "else":
                self._advance()
                else_body = self._block(_END)
            else:
                break
        self._expect_end(start)
        return ast.If(self._span(start), clauses, else_body)

    def _for(self) -> ast.Stmt:
        start = self._advance()
        paren = self.tok if self.tok.kind == "(" else None
        if paren is not None:
            self._advance()
        var_tok = self.tok
        if var_tok.kind != ID:
            raise self._unexpected(var_tok)
        self._advance()
        if self.tok.kind != "=":
            raise self._unexpected(self.tok)
        self._assigned(var_tok.text)
        self._advance()
        iterable = self.parse_expr()
        max_workers = None
        if paren is not None:
            if start.kind == "parfor" and self.tok.kind == ",":
                self._advance()
                max_workers = self.parse_expr()
            self._close(")", paren)
        body = self._block(_END)
        self._expect_end(start)
        return ast.For(self._span(start), ast.Ident(self._span(var_tok), var_tok.text),
                       iterable, body, start.kind == "parfor", max_workers)

    def _while(self) -> ast.Stmt:
        start = self._advance()
        cond = self.parse_expr()
        body = self._block(_END)
        self._expect_end(start)
        return ast.While(self._span(start), cond, body)

    def _switch(self) -> ast.Stmt:
        start = self._advance()
        subject = self.parse_expr()
        cases: list[tuple[ast.Expr, list[ast.Stmt]]] = []
        otherwise = None
        while True:
            self._skip_separators()
            tok = self.tok
            if tok.kind == "case" and otherwise is None:
                self._advance()
                cases.append((self.parse_expr(), self._block(_CASE_BODY_END)))
            elif tok.kind == "otherwise" and otherwise is None:
                self._advance()
                otherwise = self._block(_CASE_BODY_END)
            elif tok.kind in ("end", EOF, "function"):
                break
            else:
                raise self._unexpected(tok)
        self._expect_end(start)
        return ast.Switch(self._span(start), subject, cases, otherwise)

    def _try(self) -> ast.Stmt:
        start = self._advance()
        body = self._block(_TRY_BODY_END)
        ident = None
        catch_body: list[ast.Stmt] = []
        if self.tok.kind == "catch":
            catch_tok = self._advance()
            tok = self.tok
            # ``catch err`` names the exception only when the name stands alone.
            if (tok.kind == ID and tok.line == catch_tok.line
                    and self._peek2().kind in (NL, ";", ",", EOF)):
                ident = self._advance().text
                self._assigned(ident)
            catch_body = self._block(_END)
        self._expect_end(start)
        return ast.TryCatch(self._span(start), body, ident, catch_body)


_STATEMENT_HANDLERS = {
    "if": StatementParser._if,
    "for": StatementParser._for,
    "parfor": StatementParser._for,
    "while": StatementParser._while,
    "switch": StatementParser._switch,
    "try": StatementParser._try,
    "global": StatementParser._declaration,
    "persistent": StatementParser._declaration,
    "break": StatementParser._simple_keyword,
    "continue": StatementParser._simple_keyword,
    "return": StatementParser._simple_keyword,
}


def root_name(target: ast.Expr) -> str | None:
    """The variable an assignment target writes, or None if not assignable."""
    while isinstance(target, (ast.Index, ast.Field, ast.DynField)):
        target = target.base
    return target.name if isinstance(target, ast.Ident) else None
