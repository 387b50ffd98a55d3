"""Token type and the lexical tables shared by the lexer and the parser.

A token's ``kind`` is the operator text for operators and punctuation
(``"+"``, ``".*"``, ``"("``), the keyword for keywords (``"if"``, ``"end"``),
or one of ``NUM STR ID NL EOF CMD`` for the rest.
"""

from __future__ import annotations

import re

NUM = "num"
STR = "str"
ID = "id"
NL = "nl"
EOF = "eof"
CMD = "cmd"

KEYWORDS = frozenset({
    "break", "case", "catch", "classdef", "continue", "else", "elseif", "end",
    "for", "function", "global", "if", "otherwise", "parfor", "persistent",
    "return", "spmd", "switch", "try", "while",
})

# Octave spellings of block ends; accepted and normalised to ``end``.
OCTAVE_ENDS = frozenset({
    "endfunction", "endif", "endfor", "endwhile", "endswitch",
    "end_try_catch", "endparfor", "endclassdef", "endproperties", "endmethods",
    "endevents", "endenumeration",
})

# Binary operator precedence (higher binds tighter); ``:`` is handled apart.
BINARY_PRECEDENCE: dict[str, int] = {
    "||": 1,
    "&&": 2,
    "|": 3,
    "&": 4,
    "<": 5, "<=": 5, ">": 5, ">=": 5, "==": 5, "~=": 5,
    ":": 6,
    "+": 7, "-": 7,
    "*": 8, "/": 8, "\\": 8, ".*": 8, "./": 8, ".\\": 8,
}
COLON_PRECEDENCE = 6

# Operators a command-syntax check treats as "potential operators".
COMMAND_OPERATORS = (
    "&&", "||", "==", "~=", "!=", "<=", ">=", ".*", "./", ".\\", ".^",
    "+", "-", "*", "/", "\\", "^", "<", ">", "&", "|", ":",
)

# Tokens after which a directly following ``'`` is a transpose.
VALUE_END_KINDS = frozenset({NUM, STR, ID, ")", "]", "}", "'", ".'"})

# Tokens after which the next identifier starts a statement.
STATEMENT_START_KINDS = frozenset({None, NL, ";", ",", "else", "try", "otherwise"})

# One master pattern; the lexer dispatches on ``lastgroup``.
MASTER_PATTERN = re.compile(r"""
    (?P<ws>[ \t\f\v]+)
  | (?P<nl>\n)
  | (?P<comment>%)
  | (?P<cont>\.\.\.)
  | (?P<hexnum>0[xX][0-9A-Fa-f]+(?:[su](?:8|16|32|64))?(?![A-Za-z0-9_]))
  | (?P<binnum>0[bB][01]+(?:[su](?:8|16|32|64))?(?![A-Za-z0-9_]))
  | (?P<num>(?:\d+(?:\.(?![*/\\^'.])\d*)?|\.\d+)(?:[eEdD][+-]?\d+)?(?:[ijIJ](?![A-Za-z0-9_]))?)
  | (?P<ident>[A-Za-z][A-Za-z0-9_]*)
  | (?P<dquote>")
  | (?P<squote>')
  | (?P<op>==|~=|!=|<=|>=|&&|\|\||\.\*|\./|\.\\|\.\^|\.'|[-+*/\\^<>&|~!=:,;()\[\]{}.@])
""", re.VERBOSE)

CHAR_BODY = re.compile(r"(?:[^'\n]|'')*'")
STRING_BODY = re.compile(r'(?:[^"\n]|"")*"')


class Token:
    """One lexical token with its 1-based position.

    ``space_before`` is True when whitespace (or a continuation) separates it
    from the previous token on the same logical line; the parser needs it for
    MATLAB's whitespace rules inside ``[]`` and ``{}``.
    """

    __slots__ = ("kind", "text", "value", "line", "col", "pos", "space_before")

    def __init__(self, kind: str, text: str, value: object, line: int,
                 col: int, pos: int, space_before: bool) -> None:
        self.kind = kind
        self.text = text
        self.value = value
        self.line = line
        self.col = col
        self.pos = pos
        self.space_before = space_before

    def describe(self) -> str:
        """The token as MATLAB names it in parse errors."""
        if self.kind == EOF:
            return "end of input"
        if self.kind == NL:
            return "end of line"
        if self.kind in KEYWORDS:
            return self.text.upper()
        return f"'{self.text}'"

    def __repr__(self) -> str:
        return f"Token({self.kind!r}, {self.text!r}, {self.line}:{self.col})"
