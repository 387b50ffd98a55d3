"""``classdef`` files: the class header and its ``properties``, ``methods``,
``events`` and ``enumeration`` blocks.

Inside the class body (outside method bodies) no line is command syntax:
``Value double = 0`` is a property with a class constraint, not
``Value('double', '=', '0')``. The parser turns command syntax off while the
lexer reads class-body tokens (``_class_body``) and back on for method bodies.
"""

from __future__ import annotations

from matfuse.lang import ast
from matfuse.lang._tokens import EOF, ID, NL, NUM

_BLOCK_WORDS = frozenset({"properties", "methods", "events", "enumeration"})
_SEPARATORS = frozenset({",", ";", NL})


class ClassParser:
    """Mixin of ProgramParser: parses one ``classdef ... end`` block."""

    _class_body = False

    def _classdef(self) -> ast.ClassDef:
        self._class_body = True
        start = self._advance()
        attributes = self._attribute_list() if self.tok.kind == "(" else {}
        name = self._dotted_name()
        superclasses: list[str] = []
        if self.tok.kind == "<":
            self._advance()
            superclasses.append(self._dotted_name())
            while self.tok.kind == "&":
                self._advance()
                superclasses.append(self._dotted_name())
        node = ast.ClassDef(self._span(start), name, attributes, superclasses)
        while True:
            self._skip_class_separators()
            tok = self.tok
            if tok.kind == "end":
                self._class_body = False
                self._advance()
                return node
            if tok.kind == ID and tok.text in _BLOCK_WORDS:
                self._class_block(node)
                continue
            if tok.kind == EOF:
                raise self._error("At least one END is missing: the statement may begin here.",
                                  start)
            raise self._unexpected(tok)

    def _skip_class_separators(self) -> None:
        while self.tok.kind in _SEPARATORS:
            self._advance()

    def _dotted_name(self) -> str:
        tok = self.tok
        if tok.kind != ID:
            raise self._unexpected(tok)
        self._advance()
        name = tok.text
        while self.tok.kind == "." and self._peek2().kind == ID:
            self._advance()
            name += "." + self._advance().text
        return name

    def _attribute_list(self) -> dict[str, ast.Expr | None]:
        """``(Name, Name = value, ~Name)``: a bare name means true."""
        opener = self._advance()
        attributes: dict[str, ast.Expr | None] = {}
        while self.tok.kind != ")":
            negate = False
            if self.tok.kind == "~":
                self._advance()
                negate = True
            tok = self.tok
            if tok.kind != ID:
                raise self._unexpected(tok)
            self._advance()
            value: ast.Expr | None = None
            if self.tok.kind == "=":
                self._advance()
                value = self.parse_expr()
            elif negate:
                value = ast.Ident(self._span(tok), "false")
            attributes[tok.text] = value
            if self.tok.kind == ",":
                self._advance()
            elif self.tok.kind != ")":
                self._close(")", opener)
        self._advance()
        return attributes

    def _class_block(self, node: ast.ClassDef) -> None:
        start = self._advance()
        attributes = self._attribute_list() if self.tok.kind == "(" else {}
        word = start.text
        block = ast.MethodBlock(self._span(start), attributes, [])
        if word == "methods":
            node.methods.append(block)
        while True:
            self._skip_class_separators()
            tok = self.tok
            if tok.kind == "end":
                self._advance()
                return
            if tok.kind == EOF:
                raise self._error("At least one END is missing: the statement may begin here.",
                                  start)
            if word == "properties":
                node.properties.append(self._property(attributes))
            elif word == "methods":
                self._method(block)
            elif word == "events":
                node.events.append(self._dotted_name())
            else:
                node.enumeration.append(self._enum_member())

    def _property(self, attributes: dict[str, ast.Expr | None]) -> ast.PropertyDef:
        """``name [(dims)] [class] [{validators}] [= default]``."""
        tok = self.tok
        if tok.kind != ID:
            raise self._unexpected(tok)
        self._advance()
        prop = ast.PropertyDef(self._span(tok), tok.text, attributes=attributes)
        if self.tok.kind == "(":
            prop.size = self._size_spec()
        if self.tok.kind == ID:
            prop.class_name = self._dotted_name()
        if self.tok.kind == "{":
            cell = self._matrix(self.tok, "}", ast.CellLit)
            prop.validators = [e for row in cell.rows for e in row]
        if self.tok.kind == "=":
            self._advance()
            prop.default = self.parse_expr()
        self._end_class_line()
        return prop

    def _size_spec(self) -> list[ast.Expr]:
        opener = self._advance()
        dims: list[ast.Expr] = []
        while True:
            tok = self.tok
            if tok.kind == ":":
                self._advance()
                dims.append(ast.Colon(self._span(tok)))
            elif tok.kind == NUM:
                self._advance()
                dims.append(ast.Number(self._span(tok), tok.value[0]))
            else:
                raise self._unexpected(tok)
            if self.tok.kind != ",":
                break
            self._advance()
        self._close(")", opener)
        return dims

    def _end_class_line(self) -> None:
        tok = self.tok
        if tok.kind in _SEPARATORS:
            self._advance()
        elif tok.kind not in ("end", EOF):
            raise self._after_expression(tok)

    def _method(self, block: ast.MethodBlock) -> None:
        if self.tok.kind == "function":
            self._class_body = False
            parsed = self._function()
            self._class_body = True
            if not parsed.closed:
                raise self._error("All functions in a classdef file must be closed with 'end'.",
                                  parsed.start)
            block.functions.extend(self._resolve(parsed))
            return
        # A signature without a body: an abstract method or one defined in
        # its own file in an @-folder.
        _, name, _ = self._signature()
        block.signatures.append(name)
        self._end_class_line()

    def _enum_member(self) -> tuple[str, list[ast.Expr]]:
        tok = self.tok
        if tok.kind != ID:
            raise self._unexpected(tok)
        self._advance()
        args: list[ast.Expr] = []
        if self.tok.kind == "(":
            args = self._arguments(self.tok, ")")
        if self.tok.kind == ",":
            self._advance()
        return tok.text, args
