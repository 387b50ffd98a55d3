"""MATLAB front end: lexer, parser and AST (``parse(source, file) -> ast.Program``)."""

from matfuse.lang.parser import parse

__all__ = ["parse"]
