"""MATLAB printf-family formatting (``sprintf``/``fprintf``).

Contract: ``format_printf(fmt: str, args: list) -> str`` implements
``sprintf``'s formatting with format recycling:

* every argument is flattened column-major into one element stream; a char
  argument is consumed whole by ``%s`` but one character at a time (as its
  code) by numeric conversions;
* the format is reused until every element is consumed; when the data runs
  out mid-format, output stops at the next conversion that needs data;
* ``%d``/``%i``/``%u``/``%x``/``%o``/``%c`` given a non-integer value switch
  to ``%e`` (MATLAB prints ``sprintf('%d', 1.5)`` as ``1.500000e+00``).
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from matfuse.errors import MatlabError, out_of_memory
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    DeviceValue,
    StringArray,
    class_of,
)

_SPEC_RE = re.compile(r"%(?P<flags>[-+ 0#]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?"
                      r"(?P<length>[lhLtbq]?)(?P<conv>[diouxXfFeEgGcsaA%])")

_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "a": "\a", "r": "\r",
                   "b": "\b", "f": "\f", "v": "\v", "'": "'", '"': '"', "0": "\0"}


def process_escapes(text: str) -> str:
    """Translate MATLAB's backslash escapes (``\\n``, ``\\x41``, ``\\101``)."""
    if "\\" not in text:
        return text
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt == "x":
            m = re.match(r"[0-9a-fA-F]+", text[i + 2:])
            if m:
                out.append(chr(int(m.group(0), 16)))
                i += 2 + m.end(0)
                continue
            out.append("\\x")
            i += 2
            continue
        if nxt in "01234567":
            m = re.match(r"[0-7]{1,3}", text[i + 1:])
            out.append(chr(int(m.group(0), 8)))
            i += 1 + m.end(0)
            continue
        if nxt in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[nxt])
            i += 2
            continue
        # Unknown escape: MATLAB keeps the character after the backslash.
        out.append(nxt)
        i += 2
    return "".join(out)


@dataclass(slots=True, frozen=True)
class _Spec:
    flags: str
    width: str | None
    prec: str | None
    conv: str

    def needs_data(self) -> int:
        """How many stream elements this conversion consumes (stars included)."""
        return (self.width == "*") + (self.prec == "*") + 1


def parse_format(fmt: str) -> list[str | _Spec]:
    """Split a (escape-processed) format into literal text and conversions."""
    parts: list[str | _Spec] = []
    pos = 0
    literal: list[str] = []
    while pos < len(fmt):
        idx = fmt.find("%", pos)
        if idx < 0:
            literal.append(fmt[pos:])
            break
        literal.append(fmt[pos:idx])
        m = _SPEC_RE.match(fmt, idx)
        if m is None:
            # A lone or invalid '%': MATLAB stops output at an invalid spec.
            parts.append("".join(literal))
            return parts
        if m.group("conv") == "%":
            literal.append("%")
        else:
            if literal:
                parts.append("".join(literal))
                literal = []
            parts.append(_Spec(m.group("flags"), m.group("width"), m.group("prec"), m.group("conv")))
        pos = m.end()
    if literal and "".join(literal):
        parts.append("".join(literal))
    return parts


# ------------------------------------------------------------ element stream
@dataclass(slots=True)
class _Text:
    """A run of characters from one char argument (consumed whole by %s)."""

    text: str


class _Stream:
    """The flattened arguments; chars stay grouped by argument."""

    def __init__(self, args: list[Any]):
        self.items: list[Any] = []
        for a in args:
            self._add(a)
        self.pos = 0
        self.offset = 0  # characters already consumed from the current _Text

    def _add(self, a: Any) -> None:
        if isinstance(a, DeviceValue):
            a = a.gather()
        t = type(a)
        if t is float or t is int:
            self.items.append(float(a))
        elif t is bool:
            self.items.append(1.0 if a else 0.0)
        elif t is complex:
            self.items.append(a.real)
        elif t is np.ndarray:
            self._add_array(a)
        elif t is StringArray:
            for s in a.data.reshape(-1, order="F"):
                self.items.append(_Text("<missing>" if s is None else s))
        elif t is CellArray:
            raise MatlabError("MATLAB:printf:invalidInputType",
                              "Function is not defined for 'cell' inputs.")
        elif hasattr(a, "element_texts"):      # datetime, duration: their text
            self.items.extend(_Text(s) for s in a.element_texts())
        else:
            raise MatlabError("MATLAB:printf:invalidInputType",
                              f"Function is not defined for '{class_of(a)}' inputs.")

    def _add_array(self, a: np.ndarray) -> None:
        if a.size == 0:
            return
        if a.dtype == CHAR_DTYPE:
            # Code points, not tolist(): NumPy drops NUL characters from str items.
            codes = a.reshape(-1, order="F").view(np.uint32)
            self.items.append(_Text("".join(map(chr, codes.tolist()))))
            return
        flat = a.reshape(-1, order="F")
        if a.dtype.kind == "c":
            flat = flat.real
        if a.dtype.kind in "iu":
            self.items.extend(int(x) for x in flat.tolist())
        else:
            self.items.extend(float(x) for x in flat.tolist())

    def empty(self) -> bool:
        return self.pos >= len(self.items)

    def take_number(self) -> float | int:
        item = self.items[self.pos]
        if isinstance(item, _Text):
            ch = item.text[self.offset]
            self.offset += 1
            if self.offset >= len(item.text):
                self.pos += 1
                self.offset = 0
            return float(ord(ch))
        self.pos += 1
        return item

    def take_char(self) -> str | float | int:
        """One character of a char argument (as text), or one number."""
        item = self.items[self.pos]
        if isinstance(item, _Text):
            return chr(int(self.take_number()))
        self.pos += 1
        return item

    def take_for_text(self) -> str | float | int:
        item = self.items[self.pos]
        if isinstance(item, _Text):
            text = item.text[self.offset:]
            self.pos += 1
            self.offset = 0
            return text
        self.pos += 1
        return item


# --------------------------------------------------------------- formatting
def _is_integral(x: float | int) -> bool:
    return isinstance(x, int) or (math.isfinite(x) and x == math.floor(x))


def _pad(text: str, flags: str, width: int | None) -> str:
    if width is None or len(text) >= width:
        return text
    if "-" in flags:
        return text.ljust(width)
    return text.rjust(width)


def _nonfinite(x: float, flags: str, width: int | None) -> str:
    text = "NaN" if math.isnan(x) else ("Inf" if x > 0 else "-Inf")
    if "+" in flags and text == "Inf":
        text = "+Inf"
    return _pad(text, flags.replace("0", ""), width)


def _c_format(flags: str, width: int | None, prec: int | None, conv: str, value: Any) -> str:
    spec = "%" + flags + (str(width) if width is not None else "")
    if prec is not None:
        spec += "." + str(prec)
    return (spec + conv) % value


def _format_one(spec: _Spec, width: int | None, prec: int | None, value: Any) -> str:
    conv = spec.conv
    flags = spec.flags
    if conv in "sc":
        if isinstance(value, str):
            text = value if conv == "s" else value
            if prec is not None and conv == "s":
                text = text[:prec]
            return _pad(text, flags, width)
        if _is_integral(value) and 0 <= int(value) < 0x110000:
            return _pad(chr(int(value)), flags, width)
        if not math.isfinite(value):
            return _nonfinite(value, flags, width)
        # MATLAB prints non-integral numbers given to %s/%c in %e (or %g with precision).
        return _c_format(flags, width, prec, "e" if prec is None else "g", value)
    if isinstance(value, str):  # only reachable via %s path; keep numeric safe
        value = float(ord(value[0])) if value else 0.0
    if conv in "diuoxX":
        if not _is_integral(value):
            if isinstance(value, float) and not math.isfinite(value):
                return _nonfinite(value, flags, width)
            return _c_format(flags, width, prec, "e", value)
        ivalue = int(value)
        if conv in "oxX" and ivalue < 0:
            return _c_format(flags, width, prec, "e", float(value))
        pyconv = {"i": "d", "u": "d"}.get(conv, conv)
        return _c_format(flags, width, prec, pyconv, ivalue)
    # float conversions
    if conv in "aA":
        text = float(value).hex()
        return _pad(text.upper() if conv == "A" else text, flags, width)
    fvalue = float(value)
    if not math.isfinite(fvalue):
        return _nonfinite(fvalue, flags, width)
    pyconv = "f" if conv == "F" else conv
    if isinstance(value, int) and abs(value) >= 2 ** 53 and conv in "fF" and (prec == 0):
        return _pad(str(value), flags, width)
    return _c_format(flags, width, prec, pyconv, fvalue)


# Widths and precisions past a C int: no text that long can be made.
MAX_FIELD = 2 ** 31 - 1


def _check_field_size(width: int | None, prec: int | None) -> None:
    if (width is not None and width > MAX_FIELD) or (prec is not None and prec > MAX_FIELD):
        raise out_of_memory()


def _star_value(stream: _Stream) -> int | None:
    v = stream.take_number()
    if not _is_integral(v):
        raise MatlabError("MATLAB:printf:invalidStarArgument",
                          "Width and precision given with * must be integers.")
    return int(v)


@functools.lru_cache(maxsize=256)
def _parsed(fmt: str) -> tuple[str | _Spec, ...]:
    """``fmt`` escape-processed and split (scripts print with the same
    formats again and again: parsing was a third of an ``fprintf``)."""
    return tuple(parse_format(process_escapes(fmt)))


@functools.lru_cache(maxsize=256)
def _whole_number_plan(fmt: str) -> tuple[str, ...] | None:
    """For a format whose conversions are all plain ``%d``/``%i``: its
    literal pieces around them (one more than the conversions), else None."""
    pieces: list[str] = []
    literal: list[str] = []
    for p in _parsed(fmt):
        if isinstance(p, str):
            literal.append(p)
        elif p.conv in ("d", "i") and not p.flags and p.width is None and p.prec is None:
            pieces.append("".join(literal))
            literal = []
        else:
            return None
    if not pieces:
        return None
    pieces.append("".join(literal))
    return tuple(pieces)


def _whole_numbers_text(fmt: str, args: list[Any]) -> str | None:
    """``sprintf('id=%d, n=%d', a, b)`` with one whole double per ``%d``
    (the loop case): the text directly; None when the general formatter is
    needed (other conversions, more or fewer values, non-whole values)."""
    plan = _whole_number_plan(fmt)
    if plan is None or len(args) != len(plan) - 1:
        return None
    out = [plan[0]]
    for value, literal in zip(args, plan[1:]):
        if type(value) is not float or not -9.0e15 < value < 9.0e15 or value != int(value):
            return None
        out.append(str(int(value)))
        out.append(literal)
    return "".join(out)


def format_printf(fmt: str, args: list[Any]) -> str:
    """MATLAB ``sprintf(fmt, args...)`` as a Python string."""
    quick = _whole_numbers_text(fmt, args)
    if quick is not None:
        return quick
    parts = _parsed(fmt)
    stream = _Stream(args)
    specs = [p for p in parts if isinstance(p, _Spec)]
    out: list[str] = []

    if stream.empty():
        # No data: literal text up to the first conversion (all of it when
        # args were given but empty, conversions printing nothing).
        for p in parts:
            if isinstance(p, _Spec):
                if not args:
                    break
                continue
            out.append(p)
        return "".join(out)
    if not specs:
        return "".join(p for p in parts if isinstance(p, str))

    while not stream.empty():
        for p in parts:
            if isinstance(p, str):
                out.append(p)
                continue
            if stream.empty():
                return "".join(out)
            width: int | None = None
            prec: int | None = None
            flags = p.flags
            if p.width == "*":
                width = _star_value(stream)
                if width is not None and width < 0:
                    flags += "-"
                    width = -width
            elif p.width is not None:
                width = int(p.width)
            if p.prec == "*":
                if stream.empty():
                    return "".join(out)
                prec = max(_star_value(stream) or 0, 0)
            elif p.prec is not None:
                prec = int(p.prec)
            if stream.empty():
                return "".join(out)
            _check_field_size(width, prec)
            if p.conv == "c":
                value = stream.take_char()
            elif p.conv == "s":
                value = stream.take_for_text()
            else:
                value = stream.take_number()
            out.append(_format_one(_Spec(flags, None, None, p.conv), width, prec, value))
    return "".join(out)
