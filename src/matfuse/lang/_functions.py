"""Function definitions and whole programs (scripts and function files).

Whether a file's functions are closed with ``end`` is only known at the end of
each function, so a ``function`` keyword inside a function body is first
parsed as a nested function. If the enclosing function then reaches the end
of the file without its ``end``, the file uses unterminated functions and the
"nested" ones are really its siblings: they are flattened afterwards. MATLAB
requires all functions of a file to agree on this, and so do we.
"""

from __future__ import annotations


from matfuse.errors import Span
from matfuse.lang import ast
from matfuse.lang._argument_blocks import ArgumentBlockParser
from matfuse.lang._classdef import ClassParser
from matfuse.lang._statements import StatementParser
from matfuse.lang._tokens import EOF, ID, KEYWORDS, NL, Token

_BODY_END = frozenset({"end", "function"})
INCONSISTENT_END = ("All functions in a file must be closed with 'end' if "
                    "any function in it is.")
SCRIPT_STATEMENT_AFTER_FUNCTION = ("Function definitions in a script must "
                                   "appear at the end of the file.")


class _ParsedFunction:
    """A function as parsed, before nesting is resolved."""

    __slots__ = ("func", "closed", "start", "children")

    def __init__(self, func: ast.Function, closed: bool, start: Token,
                 children: list[_ParsedFunction] | None = None):
        self.func = func
        self.closed = closed
        self.start = start
        self.children = [] if children is None else children


class ProgramParser(ArgumentBlockParser, ClassParser, StatementParser):
    """Parses a whole file or string into an :class:`ast.Program`."""

    _open_functions = False

    def parse_program(self) -> ast.Program:
        span = Span(1, 1, self._file, self._source)
        self._skip_separators()
        if self.tok.kind == "classdef":
            classdef = self._classdef()
            self._skip_separators()
            functions = self._function_list(is_script=False)
            return ast.Program(span, [], functions, False, classdef, self._open_functions)
        if self.tok.kind == "function":
            functions = self._function_list(is_script=False)
            return ast.Program(span, [], functions, False, None, self._open_functions)
        body = self._block(frozenset({"function"}))
        functions: list[ast.Function] = []
        if self.tok.kind == "function":
            functions = self._function_list(is_script=True)
        return ast.Program(span, body, functions, True, None, self._open_functions)

    def _function_list(self, is_script: bool) -> list[ast.Function]:
        """Top-level functions until the end of the input."""
        parsed: list[_ParsedFunction] = []
        while self.tok.kind == "function":
            parsed.append(self._function())
            self._skip_separators()
        if self.tok.kind != EOF:
            if is_script:
                raise self._error(SCRIPT_STATEMENT_AFTER_FUNCTION, self.tok)
            if self.tok.kind in KEYWORDS and self.tok.kind != "function":
                raise self._unexpected(self.tok)
            raise self._error(
                "This statement is not inside any function. (It follows the END "
                f'that terminates the definition of the function "{parsed[-1].func.name}".)',
                self.tok)
        closed = [p for p in parsed if p.closed]
        self._open_functions = len(closed) != len(parsed)
        if closed and len(closed) != len(parsed):
            unclosed = next(p for p in parsed if not p.closed)
            raise self._error(INCONSISTENT_END, unclosed.start)
        functions: list[ast.Function] = []
        for item in parsed:
            functions.extend(self._resolve(item))
        return functions

    def _resolve(self, item: _ParsedFunction) -> list[ast.Function]:
        """Closed functions keep their children as nested functions; an
        unclosed one was followed by siblings, not children."""
        if item.closed:
            item.func.nested = [self._resolve(child)[0] for child in item.children]
            return [item.func]
        functions = [item.func]
        for child in item.children:
            if child.closed:
                raise self._error(INCONSISTENT_END, item.start)
            functions.extend(self._resolve(child))
        return functions

    def _function(self) -> _ParsedFunction:
        start = self._advance()
        outputs, name, params = self._signature()
        self._scopes.append(set(params) | set(outputs))
        argument_blocks = self._argument_blocks()
        body: list[ast.Stmt] = []
        children: list[_ParsedFunction] = []
        while True:
            body.extend(self._block(_BODY_END))
            if self.tok.kind != "function":
                break
            children.append(self._function())
        closed = self.tok.kind == "end"
        self._scopes.pop()
        if closed:
            self._advance()
        func = ast.Function(self._span(start), name, params, outputs, body,
                            arguments=argument_blocks)
        return _ParsedFunction(func, closed, start, children)

    def _signature(self) -> tuple[list[str], str, list[str]]:
        """``[a, b] = name(x, ~, varargin)``, ``a = name``, ``name(x)``, ``name``."""
        outputs: list[str] = []
        if self.tok.kind == "[":
            opener = self._advance()
            while self.tok.kind != "]":
                tok = self.tok
                if tok.kind == ID:
                    outputs.append(tok.text)
                elif tok.kind != ",":
                    if tok.kind == EOF or tok.kind == NL:
                        raise self._error("This statement is incomplete.", opener)
                    raise self._unexpected(tok)
                self._advance()
            self._advance()
            if self.tok.kind != "=":
                raise self._unexpected(self.tok)
            self._advance()
            name = self._function_name()
        else:
            name = self._function_name()
            if self.tok.kind == "=":
                self._advance()
                outputs = [name]
                name = self._function_name()
        params: list[str] = []
        if self.tok.kind == "(":
            opener = self._advance()
            if self.tok.kind != ")":
                while True:
                    tok = self.tok
                    if tok.kind == ID:
                        params.append(tok.text)
                    elif tok.kind == "~":
                        params.append("~")
                    else:
                        raise self._unexpected(tok)
                    self._advance()
                    if self.tok.kind != ",":
                        break
                    self._advance()
            self._close(")", opener)
        return outputs, name, params

    def _function_name(self) -> str:
        """A function name; dotted for property accessors (``set.Value``)."""
        tok = self.tok
        if tok.kind != ID:
            raise self._unexpected(tok)
        self._advance()
        name = tok.text
        while self.tok.kind == "." and self._peek2().kind == ID:
            self._advance()
            name += "." + self._advance().text
        return name
