"""Hand-written, regex-driven lexer for the MATLAB language.

The lexer is pulled token by token by the parser because two MATLAB rules
need context: whether ``'`` is a transpose or opens a char literal (it depends
on the previous token, on whitespace and on the innermost bracket), and
whether an identifier at the start of a statement is command syntax (it
depends on which names the parser has already seen assigned).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from matfuse.errors import MatlabSyntaxError, Span
from matfuse.lang._command import looks_like_command, scan_command_args
from matfuse.lang._tokens import (
    CHAR_BODY, CMD, EOF, ID, KEYWORDS, MASTER_PATTERN, NL, NUM, OCTAVE_ENDS,
    STATEMENT_START_KINDS, STR, STRING_BODY, VALUE_END_KINDS, Token,
)

_INT_BITS = {"8": 8, "16": 16, "32": 32, "64": 64}


def normalize_newlines(source: str) -> str:
    """CRLF and lone CR become LF so columns and lines are counted once; a
    leading byte-order mark (editors on Windows write one) is dropped."""
    if source.startswith("\ufeff"):
        source = source[1:]
    if "\r" in source:
        source = source.replace("\r\n", "\n").replace("\r", "\n")
    return source


def _never_variable(name: str) -> bool:
    return False


#: the bracket kind of an anonymous function's parameter list, and the lexer's
#: "previous token" after it: the body starts there, so a quote opens a char
#: literal (``@(x) 'ab'``) instead of transposing
_ANON_PARAMS = "@("

class Lexer:
    """Produces :class:`Token` objects on demand from MATLAB source text.

    Args:
        source: the program text (newlines already normalised).
        file: file name for spans, or None.
        is_variable: tells whether a name is a known variable in the scope
            being parsed; such names are never command syntax.
    """

    def __init__(self, source: str, file: str | None = None,
                 is_variable: Callable[[str], bool] = _never_variable) -> None:
        self.source = source
        self.file = file
        self.is_variable = is_variable
        self._n = len(source)
        self._pos = 0
        self._line = 1
        self._line_start = 0
        self._brackets: list[str] = []
        self._prev_kind: str | None = None

    # ----------------------------------------------------------------- spans
    def span(self, line: int, col: int) -> Span:
        return Span(line, col, self.file, self.source)

    def error(self, message: str, line: int, col: int) -> MatlabSyntaxError:
        return MatlabSyntaxError(message, self.span(line, col))

    # ---------------------------------------------------------------- tokens
    def next_token(self) -> Token:
        """Return the next token; raises MatlabSyntaxError on bad input."""
        src = self.source
        space = False
        while True:
            pos = self._pos
            if pos >= self._n:
                return self._make(EOF, "", None, pos, pos, space)
            m = MASTER_PATTERN.match(src, pos)
            if m is None:
                raise self.error(
                    "Invalid text character. Check for unsupported symbol, "
                    "invisible character, or pasting of non-ASCII characters.",
                    self._line, pos - self._line_start + 1)
            group = m.lastgroup
            end = m.end()
            if group == "ws":
                self._pos = end
                space = True
                continue
            if group == "comment":
                self._skip_comment(pos)
                space = True
                continue
            if group == "cont":
                self._skip_continuation(pos)
                space = True
                continue
            if group == "nl":
                tok = self._make(NL, "\n", None, pos, end, space)
                self._line += 1
                self._line_start = end
                return tok
            if group == "ident":
                return self._identifier(m.group(), pos, end, space)
            if group == "num":
                return self._make(NUM, m.group(), (_decimal_value(m.group()), None),
                                  pos, end, space)
            if group in ("hexnum", "binnum"):
                value = self._integer_literal(m.group(), group == "hexnum", pos)
                return self._make(NUM, m.group(), value, pos, end, space)
            if group == "squote":
                if self._quote_is_transpose(space):
                    return self._make("'", "'", None, pos, end, space)
                return self._quoted(pos, space, CHAR_BODY, "'", "char",
                                    "Character vector is not terminated properly.")
            if group == "dquote":
                return self._quoted(pos, space, STRING_BODY, '"', "string",
                                    "String is not terminated properly.")
            return self._operator(m.group(), pos, end, space)

    def _make(self, kind: str, text: str, value: object, pos: int, end: int,
              space: bool) -> Token:
        tok = Token(kind, text, value, self._line, pos - self._line_start + 1,
                    pos, space)
        self._pos = end
        self._prev_kind = kind
        return tok

    def _operator(self, text: str, pos: int, end: int, space: bool) -> Token:
        kind = text
        if text == "!":
            kind = "~"
        elif text == "!=":
            kind = "~="
        elif text in "([{":
            # ``c{i}`` indexes like ``c(i)``: whitespace inside is not a separator.
            if text == "{" and not space and self._prev_kind in VALUE_END_KINDS:
                text_kind = "("
            elif text == "(" and self._prev_kind == "@":
                text_kind = _ANON_PARAMS   # ``@(x) 'ab'``: a quote after it opens text
            else:
                text_kind = text
            self._brackets.append(text_kind)
        elif text in ")]}":
            if self._brackets and self._brackets.pop() == _ANON_PARAMS:
                tok = self._make(kind, text, None, pos, end, space)
                self._prev_kind = _ANON_PARAMS
                return tok
        return self._make(kind, text, None, pos, end, space)

    def _identifier(self, text: str, pos: int, end: int, space: bool) -> Token:
        if text in KEYWORDS:
            return self._make(text, text, None, pos, end, space)
        if text in OCTAVE_ENDS:
            return self._make("end", text, None, pos, end, space)
        if (not self._brackets and self._prev_kind in STATEMENT_START_KINDS
                and not self.is_variable(text)
                and looks_like_command(self.source, end)):
            return self._command(text, pos, end, space)
        return self._make(ID, text, None, pos, end, space)

    def _command(self, name: str, pos: int, end: int, space: bool) -> Token:
        line, col = self._line, pos - self._line_start + 1
        args, stop, bad_quote = scan_command_args(self.source, end)
        if bad_quote is not None:
            bad_line = line + self.source.count("\n", end, bad_quote)
            bad_col = bad_quote - self.source.rfind("\n", 0, bad_quote)
            raise self.error("Character vector is not terminated properly.",
                             bad_line, bad_col)
        # A ``...`` inside the arguments may have crossed lines.
        crossed = self.source.count("\n", end, stop)
        if crossed:
            self._line += crossed
            self._line_start = self.source.rfind("\n", 0, stop) + 1
        tok = Token(CMD, name, (name, args), line, col, pos, space)
        self._pos = stop
        self._prev_kind = CMD
        return tok

    def _quote_is_transpose(self, space: bool) -> bool:
        prev = self._prev_kind
        value_end = prev in VALUE_END_KINDS or (prev == "end" and bool(self._brackets))
        if not value_end:
            return False
        if not space:
            return True
        # ``[a 'x']``: inside brackets a spaced quote starts a new element.
        return not self._brackets or self._brackets[-1] == "("

    def _quoted(self, pos: int, space: bool, body_pattern: re.Pattern[str], quote: str,
                kind: str, unterminated: str) -> Token:
        m = body_pattern.match(self.source, pos + 1)
        if m is None:
            raise self.error(unterminated, self._line, pos - self._line_start + 1)
        end = m.end()
        raw = self.source[pos + 1:end - 1]
        value = raw.replace(quote + quote, quote)
        return self._make(STR, self.source[pos:end], (value, kind), pos, end, space)

    def _integer_literal(self, text: str, is_hex: bool,
                         pos: int) -> tuple[float, str]:
        """``0x1F``/``0b101`` with optional ``u8``..``s64`` suffix -> (value, class)."""
        digits = text[2:]
        suffix = None
        for i, ch in enumerate(digits):
            if ch in "su":
                digits, suffix = digits[:i], digits[i:]
                break
        value = int(digits, 16 if is_hex else 2)
        if suffix is None:
            for bits in (8, 16, 32, 64):
                if value < 2 ** bits:
                    return float(value), f"uint{bits}"
            raise self.error("Hexadecimal and binary values cannot exceed 64 bits.",
                             self._line, pos - self._line_start + 1)
        bits = _INT_BITS[suffix[1:]]
        if value >= 2 ** bits:
            raise self.error(f"Value is too large for type '{suffix}'.",
                             self._line, pos - self._line_start + 1)
        if suffix[0] == "s":
            if value >= 2 ** (bits - 1):
                value -= 2 ** bits
            return float(value), f"int{bits}"
        return float(value), f"uint{bits}"

    # -------------------------------------------------------------- comments
    def _skip_comment(self, pos: int) -> None:
        src = self.source
        newline = src.find("\n", pos)
        line_end = self._n if newline < 0 else newline
        if (src[pos:line_end].strip() == "%{"
                and not src[self._line_start:pos].strip()):
            self._skip_block_comment(line_end)
            return
        self._pos = line_end

    def _skip_block_comment(self, line_end: int) -> None:
        """Skip a ``%{ ... %}`` block (nested blocks allowed); stop at the
        newline that ends the closing line so it still separates statements."""
        src = self.source
        depth = 1
        while line_end < self._n:
            # Move to the next line.
            self._line += 1
            self._line_start = line_end + 1
            newline = src.find("\n", self._line_start)
            line_end = self._n if newline < 0 else newline
            text = src[self._line_start:line_end].strip()
            if text == "%{":
                depth += 1
            elif text == "%}":
                depth -= 1
                if depth == 0:
                    break
        self._pos = line_end

    def _skip_continuation(self, pos: int) -> None:
        """``...`` ignores the rest of the line, newline included."""
        newline = self.source.find("\n", pos)
        if newline < 0:
            self._pos = self._n
            return
        self._pos = newline + 1
        self._line += 1
        self._line_start = newline + 1


def _decimal_value(text: str) -> float | complex:
    imaginary = text[-1] in "ijIJ"
    if imaginary:
        text = text[:-1]
    value = float(text.replace("d", "e").replace("D", "e"))
    return complex(0.0, value) if imaginary else value
