"""``arguments ... end`` blocks at the start of a function body.

Each line declares one input: ``x (1,:) double {mustBePositive} = 1`` for a
positional parameter or ``opts.Name ... = default`` for a name-value
argument gathered into the struct parameter ``opts``. As in class bodies, no
line of the block is command syntax.
"""

from __future__ import annotations

from matfuse.lang import ast
from matfuse.lang._tokens import EOF, ID, NL

_SEPARATORS = frozenset({",", ";", NL})


class ArgumentBlockParser:
    """Mixin of ProgramParser: the ``arguments`` blocks of one function."""

    def _at_argument_block(self) -> bool:
        tok = self.tok
        return (tok.kind == ID and tok.text == "arguments"
                and self._peek2().kind in (NL, "(", ";", EOF))

    def _argument_blocks(self) -> list[ast.ArgumentsBlock]:
        blocks: list[ast.ArgumentsBlock] = []
        while True:
            while self.tok.kind in _SEPARATORS:
                self._advance()
            if not self._at_argument_block():
                return blocks
            blocks.append(self._argument_block())

    def _argument_block(self) -> ast.ArgumentsBlock:
        saved = self._class_body
        self._class_body = True
        start = self._advance()
        attributes = self._attribute_list() if self.tok.kind == "(" else {}
        block = ast.ArgumentsBlock(self._span(start), attributes, [])
        while True:
            while self.tok.kind in _SEPARATORS:
                self._advance()
            tok = self.tok
            if tok.kind == "end":
                self._class_body = saved
                self._advance()
                return block
            if tok.kind == EOF:
                raise self._error("At least one END is missing: the statement may begin here.",
                                  start)
            block.entries.append(self._argument_entry())

    def _argument_entry(self) -> ast.PropertyDef:
        """``name`` or ``struct.field``, then size, class, validators, default."""
        tok = self.tok
        if tok.kind != ID:
            raise self._unexpected(tok)
        name = self._dotted_name()
        entry = ast.PropertyDef(self._span(tok), name)
        if self.tok.kind == "(":
            entry.size = self._size_spec()
        if self.tok.kind == ID:
            entry.class_name = self._dotted_name()
        if self.tok.kind == "{":
            cell = self._matrix(self.tok, "}", ast.CellLit)
            entry.validators = [e for row in cell.rows for e in row]
        if self.tok.kind == "=":
            self._advance()
            entry.default = self.parse_expr()
        self._end_class_line()
        return entry
