"""The field reader behind textscan: a format applied row by row to text.

The format is a list of items: conversions (``%f %d8 %u %n %s %q %c %[...]``
with a width, ``%*`` to skip), literal text (matched exactly) and format
whitespace. Before a field, whitespace characters (``Whitespace``, minus
the delimiters) and comments are skipped; a field ends at a delimiter, at
the end of a line or, for text read by ``%s`` without delimiters given, at
whitespace; one delimiter (a run of them with ``MultipleDelimsAsOne``)
after a field is consumed. An empty numeric field reads as ``EmptyValue``,
as does text listed in ``TreatAsEmpty``. Reading stops at the end of the
text, after N rows, or where a field cannot be converted; a row that was
started is completed with ``EmptyValue`` (numbers) or ``''`` (text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from matfuse.errors import MatlabError

_CONVERSION = re.compile(
    r"%(?P<skip>\*?)(?P<width>\d*)(?:\.(?P<prec>\d+))?"
    r"(?P<type>d(?:8|16|32|64)?|u(?:8|16|32|64)?|f(?:32|64)?|n|s|q|c|\[\^?\]?[^\]]*\]|%)")
NUMERIC_CLASS = {"d": "int32", "d8": "int8", "d16": "int16", "d32": "int32", "d64": "int64",
                 "u": "uint32", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
                 "f": "double", "f64": "double", "f32": "single", "n": "double"}


@dataclass
class Conversion:
    kind: str                    # a NUMERIC_CLASS key, 's', 'q', 'c' or '[' (a character set)
    skip: bool = False
    width: int | None = None
    charset: str = ""
    negated: bool = False


@dataclass
class Options:
    delimiters: list[str] = field(default_factory=list)
    whitespace: str = " \b\t"
    end_of_line: list[str] = field(default_factory=lambda: ["\r\n", "\n", "\r"])
    header_lines: int = 0
    comment: tuple[str, str] | None = None
    multiple_delims_as_one: bool = False
    empty_value: float = float("nan")
    treat_as_empty: list[str] = field(default_factory=list)
    exp_chars: str = "eEdD"


def parse_format(spec: str) -> list[Any]:
    """Items of a textscan format: Conversion, ('literal', text) or ('space',)."""
    items: list[Any] = []
    k = 0
    while k < len(spec):
        c = spec[k]
        if c.isspace():
            while k < len(spec) and spec[k].isspace():
                k += 1
            items.append(("space",))
            continue
        if c == "%":
            m = _CONVERSION.match(spec, k)
            if m is None:
                raise MatlabError("MATLAB:textscan:BadFormatString",
                                  f"Unable to read the format '{spec}'.")
            k = m.end()
            kind = m.group("type")
            if kind == "%":
                items.append(("literal", "%"))
                continue
            conv = Conversion(kind, bool(m.group("skip")), int(m.group("width")) if m.group("width") else None)
            if kind.startswith("["):
                body = kind[1:-1]
                conv.kind, conv.negated = "[", body.startswith("^")
                conv.charset = unescape(body[1:] if conv.negated else body)
            items.append(conv)
            continue
        j = k
        while j < len(spec) and not spec[j].isspace() and spec[j] != "%":
            j += 1
        items.append(("literal", spec[k:j]))
        k = j
    return items


class Reader:
    """A cursor over the text with textscan's field rules."""

    def __init__(self, text: str, options: Options, delimiters_given: bool):
        self.text = text
        self.pos = 0
        self.opt = options
        self.delims_given = delimiters_given
        self.space = "".join(c for c in options.whitespace
                             if not any(c == d for d in options.delimiters))

    # ------------------------------------------------------------ positions
    def at_end(self) -> bool:
        return self.pos >= len(self.text)

    def _match_any(self, choices: list[str]) -> str | None:
        for s in sorted(choices, key=len, reverse=True):
            if s and self.text.startswith(s, self.pos):
                return s
        return None

    def delimiter(self) -> str | None:
        return self._match_any(self.opt.delimiters)

    def end_of_line(self) -> str | None:
        return self._match_any(self.opt.end_of_line)

    def skip_space(self) -> None:
        """Whitespace and comments (not delimiters, not line ends)."""
        while not self.at_end():
            if self.text[self.pos] in self.space:
                self.pos += 1
            elif self.opt.comment and self.text.startswith(self.opt.comment[0], self.pos):
                close = self.opt.comment[1]
                end = self.text.find(close, self.pos + len(self.opt.comment[0])) if close else -1
                if close and end >= 0:
                    self.pos = end + len(close)
                else:
                    eol = [self.text.find(e, self.pos) for e in self.opt.end_of_line]
                    eol = [e for e in eol if e >= 0]
                    self.pos = min(eol) if eol else len(self.text)
            else:
                return

    def skip_blank_lines(self) -> None:
        """Whitespace, comments and line ends before a row."""
        while True:
            self.skip_space()
            eol = self.end_of_line()
            if eol is None:
                if self.opt.multiple_delims_as_one and self.delimiter():
                    self.pos += len(self.delimiter())
                    continue
                return
            self.pos += len(eol)

    def field_start(self) -> None:
        self.skip_space()
        if self.opt.multiple_delims_as_one:
            while self.delimiter():
                self.pos += len(self.delimiter())
                self.skip_space()

    def field_end(self) -> None:
        """Consume what follows a field: whitespace, then one delimiter (or a
        run of them) or one line end."""
        self.skip_space()
        d = self.delimiter()
        if d:
            self.pos += len(d)
            if self.opt.multiple_delims_as_one:
                self.field_start()
            return
        eol = self.end_of_line()
        if eol:
            self.pos += len(eol)

    def at_field_end(self) -> bool:
        return self.at_end() or self.delimiter() is not None or self.end_of_line() is not None

    def treat_as_empty(self) -> bool:
        for s in self.opt.treat_as_empty:
            if s and self.text.startswith(s, self.pos):
                after = self.pos + len(s)
                save = self.pos
                self.pos = after
                ok = self.at_field_end() or self.text[after] in self.space
                self.pos = save
                if ok:
                    self.pos = after
                    return True
        return False

    # --------------------------------------------------------------- fields
    def number(self, width: int | None) -> complex | float | None:
        """A number at the cursor (None: no number there); complex a+bi too."""
        limit = len(self.text) if width is None else min(len(self.text), self.pos + width)
        value, used = _read_number(self.text[self.pos:limit], self.opt.exp_chars)
        if used == 0:
            return None
        self.pos += used
        return value

    def word(self, conv: Conversion) -> str:
        start = self.pos
        limit = len(self.text) if conv.width is None else min(len(self.text), self.pos + conv.width)
        if conv.kind == "q" and start < limit and self.text[start] == '"':
            out, k = [], start + 1
            while k < len(self.text):
                if self.text[k] == '"':
                    if self.text.startswith('""', k):
                        out.append('"')
                        k += 2
                        continue
                    k += 1
                    break
                out.append(self.text[k])
                k += 1
            self.pos = k
            return "".join(out) + self.plain(limit=len(self.text))
        if conv.kind == "[":
            k = start
            while k < limit and ((self.text[k] in conv.charset) != conv.negated):
                k += 1
            self.pos = k
            return self.text[start:k]
        return self.plain(limit)

    def plain(self, limit: int) -> str:
        start = k = self.pos
        while k < limit:
            self.pos = k
            if self.delimiter() is not None or self.end_of_line() is not None:
                break
            if not self.delims_given and self.text[k] in self.space:
                break
            k += 1
        self.pos = k
        word = self.text[start:k]
        return word.rstrip(self.space) if self.delims_given else word

    def chars(self, width: int | None) -> str:
        n = width or 1
        out = self.text[self.pos:self.pos + n]
        self.pos += len(out)
        return out


def _read_number(s: str, exp_chars: str) -> tuple[float | complex, int]:
    """The longest number at the start of s: (value, characters used)."""
    real, used = _read_real(s, exp_chars)
    if used == 0:
        return 0.0, 0
    rest = s[used:]
    if isinstance(real, complex):
        return real, used
    m = re.match(r"[+-]", rest)
    if m:
        imag, n = _read_real(rest, exp_chars)
        if n and isinstance(imag, complex):
            return complex(real, imag.imag), used + n
    return real, used


def _read_real(s: str, exp_chars: str) -> tuple[float | complex, int]:
    """A real number, or an imaginary one (suffix i/j, or a lone i/j)."""
    exp = re.escape(exp_chars) if exp_chars else "eE"
    m = re.match(rf"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[{exp}][+-]?\d+)?|inf|nan)", s, re.IGNORECASE)
    if m is None or m.group(0) in ("+", "-", ""):
        lone = re.match(r"([+-]?)[ij](?![a-zA-Z])", s) or re.match(r"([+-]?)[ij]", s)
        if lone:
            return complex(0.0, -1.0 if lone.group(1) == "-" else 1.0), lone.end()
        return 0.0, 0
    text = m.group(0)
    body = text.lstrip("+-").lower()
    if body == "inf":
        value = float("inf")
    elif body == "nan":
        value = float("nan")
    else:
        value = float(re.sub(rf"[{exp}]", "e", text)) if exp_chars else float(text)
    if text.startswith("-") and body in ("inf", "nan"):
        value = -value
    end = m.end()
    if end < len(s) and s[end] in "ij" and not (end + 1 < len(s) and s[end + 1].isalpha()):
        return complex(0.0, value), end + 1
    return value, end


def unescape(text: str) -> str:
    """Escape sequences (\\t, \\n, ...) of option text as their characters."""
    table = {"t": "\t", "n": "\n", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "\\": "\\"}
    return re.sub(r"\\(.)", lambda m: table.get(m.group(1), "\\" + m.group(1)), text)
