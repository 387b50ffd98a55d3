"""Public entry point of the MATLAB front end: :func:`parse`.

The parser is hand-written recursive descent over a lazily pulled token
stream: :mod:`~matfuse.lang.lexer` (tokens), :mod:`._expressions`
(precedence and brackets), :mod:`._statements` (statements and blocks),
:mod:`._functions` (function definitions and whole files).
"""

from __future__ import annotations

from collections.abc import Iterable

from matfuse.errors import MatlabSyntaxError, Span
from matfuse.lang import ast
from matfuse.lang._functions import ProgramParser
from matfuse.lang.lexer import normalize_newlines

__all__ = ["parse"]


def parse(source: str, file: str | None = None, *,
          variables: Iterable[str] = ()) -> ast.Program:
    """Parse MATLAB source text into an :class:`ast.Program`.

    Args:
        source: program text (a script, a function file or a REPL line).
        file: file name used in spans and error reports.
        variables: names already defined in the workspace (REPL, ``eval``),
            so ``x -1`` parses as an expression rather than command syntax.

    Raises:
        MatlabSyntaxError: with a span pointing at the offending token.
    """
    source = normalize_newlines(source)
    parser = ProgramParser(source, file, variables)
    try:
        return parser.parse_program()
    except RecursionError:
        raise MatlabSyntaxError(
            "Expression is too deeply nested.",
            Span(parser.tok.line, parser.tok.col, file, source)) from None
