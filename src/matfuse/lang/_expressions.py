"""Expression half of the MATLAB parser: token stream, precedence, brackets.

Precedence, lowest to highest (MATLAB's documented order): ``||``, ``&&``,
``|``, ``&``, comparisons, ``:``, ``+ -``, ``* / \\ .* ./ .\\``, prefix
``+ - ~``, then ``^ .^`` and postfix ``' .'`` at one left-associative level.
A prefix operator right after ``^`` binds tighter (``2^-1``, ``2^-2^2`` is
``(2^-2)^2``).

Inside ``[]``/``{}`` whitespace separates elements: ``[1 -2]`` has two,
``[1 - 2]`` one, ``[f (1)]`` two; the parser asks for ``space_before`` to
apply these rules, and the lexer handles ``[a 'str']``.
"""

from __future__ import annotations

from matfuse.errors import MatlabSyntaxError, Span
from matfuse.lang import ast
from matfuse.lang._tokens import (
    BINARY_PRECEDENCE, COLON_PRECEDENCE, EOF, ID, KEYWORDS, NL, NUM, STR, Token,
)
from matfuse.lang.lexer import Lexer

# Brackets nested deeper than this are a syntax error (MATLAB has a similar limit).
MAX_NESTING = 120

INCOMPLETE = "This statement is incomplete."
UNBALANCED = "Unbalanced or unexpected parenthesis or bracket."
MISMATCHED = ("Invalid expression. When calling a function or indexing a "
              "variable, use parentheses. Otherwise, check for mismatched "
              "delimiters.")
JUXTAPOSED = "Unexpected MATLAB expression."
BAD_EQUALS = ("Incorrect use of '=' operator. To assign a value to a variable, "
              "use '='. To compare values for equality, use '=='.")

_CLOSERS = frozenset({")", "]", "}"})
_PREFIX_OPS = frozenset({"-", "+", "~"})
_VALUE_STARTS = frozenset({NUM, STR, ID, "(", "[", "{", "@"})


class ExpressionParser:
    """Token handling and expression parsing; statements live in parser.py."""

    def __init__(self, lexer: Lexer) -> None:
        self._lexer = lexer
        self._file = lexer.file
        self._source = lexer.source
        self._ahead: list[Token] = []
        # Whitespace separates elements only directly inside [] or {}.
        self._in_matrix = False
        # > 0 while parsing index arguments, where ``end`` is a value.
        self._index_depth = 0
        # Position of a statement-initial ``[`` whose elements may be ``~``.
        self._tilde_ok_pos = -1
        self._tildes: list[ast.Tilde] = []
        self.tok: Token = lexer.next_token()

    # ---------------------------------------------------------- token stream
    def _advance(self) -> Token:
        tok = self.tok
        self.tok = self._ahead.pop() if self._ahead else self._lexer.next_token()
        return tok

    def _peek2(self) -> Token:
        if not self._ahead:
            self._ahead.append(self._lexer.next_token())
        return self._ahead[0]

    def _span(self, tok: Token) -> Span:
        return Span(tok.line, tok.col, self._file, self._source)

    def _error(self, message: str, tok: Token) -> MatlabSyntaxError:
        return MatlabSyntaxError(message, self._span(tok))

    def _unexpected(self, tok: Token) -> MatlabSyntaxError:
        """The error for ``tok`` appearing where it cannot."""
        kind = tok.kind
        if kind == EOF or kind == NL:
            return self._error(INCOMPLETE, tok)
        if kind in _CLOSERS:
            return self._error(UNBALANCED, tok)
        if kind in KEYWORDS:
            return self._error(f'Illegal use of reserved keyword "{tok.text}".', tok)
        if kind == "=":
            return self._error(BAD_EQUALS, tok)
        return self._error(
            f"Parse error at {tok.describe()}: usage might be invalid MATLAB syntax.", tok)

    def _after_expression(self, tok: Token) -> MatlabSyntaxError:
        """The error for ``tok`` following a complete expression."""
        if tok.kind in _VALUE_STARTS:
            return self._error(JUXTAPOSED, tok)
        return self._unexpected(tok)

    def _close(self, closer: str, opener: Token) -> None:
        """Consume ``closer`` matching ``opener`` or raise a delimiter error."""
        tok = self.tok
        if tok.kind == closer:
            self._advance()
            return
        if tok.kind == NL or tok.kind == EOF:
            raise self._error(MISMATCHED, opener)
        if tok.kind in _CLOSERS:
            raise self._error(UNBALANCED, tok)
        raise self._after_expression(tok)

    # ----------------------------------------------------------- expressions
    def parse_expr(self, min_prec: int = 1) -> ast.Expr:
        """Parse a binary-operator expression whose operators bind at least
        as tightly as ``min_prec``."""
        left = self._unary()
        while True:
            tok = self.tok
            kind = tok.kind
            prec = BINARY_PRECEDENCE.get(kind)
            if prec is None or prec < min_prec:
                return left
            if (self._in_matrix and tok.space_before and (kind == "+" or kind == "-")
                    and not self._peek2().space_before):
                return left  # ``[1 -2]``: the sign starts the next element
            self._advance()
            if prec == COLON_PRECEDENCE:
                left = self._range_rest(left)
                continue
            right = self.parse_expr(prec + 1)
            left = ast.Binary(left.span, kind, left, right)

    def _range_rest(self, start: ast.Expr) -> ast.Range:
        """After ``start :``, parse ``stop`` or ``step : stop``."""
        middle = self.parse_expr(COLON_PRECEDENCE + 1)
        if self.tok.kind == ":":
            self._advance()
            stop = self.parse_expr(COLON_PRECEDENCE + 1)
            return ast.Range(start.span, start, middle, stop)
        return ast.Range(start.span, start, None, middle)

    def _unary(self) -> ast.Expr:
        tok = self.tok
        if tok.kind in _PREFIX_OPS:
            self._advance()
            return ast.Unary(self._span(tok), tok.kind, self._unary())
        return self._power()

    def _power(self) -> ast.Expr:
        base = self._postfix()
        while True:
            kind = self.tok.kind
            if kind == "'" or kind == ".'":
                self._advance()
                base = ast.Postfix(base.span, kind, base)
            elif kind == "^" or kind == ".^":
                self._advance()
                base = ast.Binary(base.span, kind, base, self._power_operand())
            else:
                return base

    def _power_operand(self) -> ast.Expr:
        tok = self.tok
        if tok.kind in _PREFIX_OPS:
            self._advance()
            return ast.Unary(self._span(tok), tok.kind, self._power_operand())
        return self._postfix()

    def _postfix(self) -> ast.Expr:
        node = self._primary()
        while True:
            tok = self.tok
            kind = tok.kind
            if kind == "(" or kind == "{":
                if self._in_matrix and tok.space_before:
                    return node  # ``[f (1)]``: two elements
                closer = ")" if kind == "(" else "}"
                args = self._arguments(tok, closer)
                node = ast.Index(node.span, node, args, "()" if kind == "(" else "{}")
            elif kind == ".":
                self._advance()
                name_tok = self.tok
                if name_tok.kind == ID:
                    self._advance()
                    node = ast.Field(node.span, node, name_tok.text)
                elif name_tok.kind == "(":
                    self._advance()
                    name_expr = self._grouped(name_tok)
                    node = ast.DynField(node.span, node, name_expr)
                else:
                    raise self._unexpected(name_tok)
            elif (kind == "@" and type(node) is ast.Ident and not tok.space_before
                  and self._peek2().kind == ID):
                # ``obj@Super(args)`` / ``method@Super(obj)`` in a class method.
                self._advance()
                superclass = self._advance().text
                while self.tok.kind == "." and self._peek2().kind == ID:
                    self._advance()
                    superclass += "." + self._advance().text
                node = ast.SuperRef(node.span, node.name, superclass)
            else:
                return node

    def _primary(self) -> ast.Expr:
        tok = self.tok
        kind = tok.kind
        if kind == ID:
            self._advance()
            return ast.Ident(self._span(tok), tok.text)
        if kind == NUM:
            self._advance()
            value, int_class = tok.value
            return ast.Number(self._span(tok), value, int_class)
        if kind == STR:
            self._advance()
            text, str_kind = tok.value
            return ast.String(self._span(tok), text, str_kind)
        if kind in ("(", "[", "{"):
            return self._nested(tok)
        if kind == "@":
            return self._handle(tok)
        if kind == "end" and tok.text == "end" and self._index_depth > 0:
            self._advance()
            return ast.End(self._span(tok))
        raise self._unexpected(tok)

    def _nested(self, tok: Token) -> ast.Expr:
        """``(...)``, ``[...]`` or ``{...}`` with an explicit nesting limit, so
        the error does not depend on Python's recursion limit."""
        self._nesting = getattr(self, "_nesting", 0) + 1
        try:
            if self._nesting > MAX_NESTING:
                raise MatlabSyntaxError("Expression is too deeply nested.", self._span(tok))
            if tok.kind == "(":
                self._advance()
                return self._grouped(tok)
            if tok.kind == "[":
                return self._matrix(tok, "]", ast.Matrix)
            return self._matrix(tok, "}", ast.CellLit)
        finally:
            self._nesting -= 1

    def _grouped(self, opener: Token) -> ast.Expr:
        """The inside of ``( expr )`` after the ``(``; whitespace is not a separator."""
        saved = self._in_matrix
        self._in_matrix = False
        expr = self.parse_expr()
        self._close(")", opener)
        self._in_matrix = saved
        return expr

    def _arguments(self, opener: Token, closer: str) -> list[ast.Expr]:
        """``(a, :, end-1)`` or ``{...}`` index arguments."""
        self._advance()
        saved = self._in_matrix
        self._in_matrix = False
        self._index_depth += 1
        args: list[ast.Expr] = []
        if self.tok.kind == closer:
            self._advance()
        else:
            while True:
                tok = self.tok
                if tok.kind == ":" and self._peek2().kind in (",", closer):
                    self._advance()
                    args.append(ast.Colon(self._span(tok)))
                else:
                    args.append(self.parse_expr())
                if self.tok.kind == ",":
                    self._advance()
                    continue
                self._close(closer, opener)
                break
        self._index_depth -= 1
        self._in_matrix = saved
        return args

    def _matrix(self, opener: Token, closer: str, node_type: type) -> ast.Expr:
        """``[...]`` or ``{...}``: rows split by ``;``/newline, elements by
        ``,`` or whitespace."""
        self._advance()
        saved = self._in_matrix
        self._in_matrix = True
        allow_tilde = opener.pos == self._tilde_ok_pos
        rows: list[list[ast.Expr]] = []
        row: list[ast.Expr] = []
        need_separator = False
        while True:
            tok = self.tok
            kind = tok.kind
            if kind == closer:
                self._advance()
                break
            if kind == ";" or kind == NL:
                self._advance()
                if row:
                    rows.append(row)
                    row = []
                need_separator = False
                continue
            if kind == ",":
                if not need_separator:
                    raise self._unexpected(tok)
                self._advance()
                need_separator = False
                continue
            if kind == EOF:
                raise self._error(INCOMPLETE, opener)
            if kind in _CLOSERS:
                raise self._error(UNBALANCED, tok)
            if need_separator and not tok.space_before:
                raise self._after_expression(tok)
            if allow_tilde and kind == "~" and self._peek2().kind in (",", closer):
                self._advance()
                tilde = ast.Tilde(self._span(tok))
                self._tildes.append(tilde)
                row.append(tilde)
            else:
                row.append(self.parse_expr())
            need_separator = True
        if row:
            rows.append(row)
        self._in_matrix = saved
        return node_type(self._span(opener), rows)

    def _handle(self, at: Token) -> ast.Expr:
        """``@name``, ``@pkg.name`` or ``@(params) body``."""
        self._advance()
        tok = self.tok
        if tok.kind == ID:
            self._advance()
            name = tok.text
            while (self.tok.kind == "." and not self.tok.space_before
                   and self._peek2().kind == ID):
                self._advance()
                name += "." + self._advance().text
            return ast.FuncHandle(self._span(at), name)
        if tok.kind != "(":
            raise self._unexpected(tok)
        self._advance()
        params: list[str] = []
        if self.tok.kind != ")":
            while True:
                param = self.tok
                if param.kind == ID:
                    params.append(param.text)
                elif param.kind == "~":
                    params.append("~")
                else:
                    raise self._unexpected(param)
                self._advance()
                if self.tok.kind != ",":
                    break
                self._advance()
        self._close(")", tok)
        # ``end`` in the body refers to indexing inside the body only.
        saved_depth = self._index_depth
        self._index_depth = 0
        body = self.parse_expr()
        self._index_depth = saved_depth
        return ast.AnonFunc(self._span(at), params, body)
