"""MATLAB LineSpec strings (``'r--o'``): line style, marker and colour."""

from __future__ import annotations

from dataclasses import dataclass

from matfuse.graphics.colors import SHORT_COLORS

LINE_STYLES = {"-": "-", "--": "--", ":": ":", "-.": "-.", "none": "None"}
# MATLAB marker -> matplotlib marker
MARKERS = {"o": "o", "+": "+", "*": "*", ".": ".", "x": "x", "_": "_", "|": "|",
           "s": "s", "square": "s", "d": "D", "diamond": "D", "^": "^", "v": "v",
           ">": ">", "<": "<", "p": "p", "pentagram": "p", "h": "h", "hexagram": "h",
           "none": "None"}
MARKERS_BACK = {"o": "o", "+": "+", "*": "*", ".": ".", "x": "x", "_": "_", "|": "|",
                "s": "square", "D": "diamond", "^": "^", "v": "v", ">": ">", "<": "<",
                "p": "pentagram", "h": "hexagram", "None": "none"}


@dataclass
class LineSpec:
    line_style: str | None = None   # matplotlib style ('-', '--', ':', '-.', 'None')
    marker: str | None = None       # matplotlib marker
    color: tuple[float, float, float] | None = None


def parse_linespec(text: str) -> LineSpec | None:
    """The LineSpec in ``text``, or None when it is not one (then it is a
    property name). Each part may appear once, in any order."""
    spec = LineSpec()
    rest = text.strip()
    if not rest:
        return None
    words = ("square", "diamond", "pentagram", "hexagram")
    while rest:
        word = next((w for w in words if rest.startswith(w)), None)
        if word is not None:
            if spec.marker is not None:
                return None
            spec.marker = MARKERS[word]
            rest = rest[len(word):]
            continue
        two = rest[:2]
        if two in ("--", "-."):
            if spec.line_style is not None:
                return None
            spec.line_style = two
            rest = rest[2:]
            continue
        ch = rest[0]
        if ch in ("-", ":"):
            if spec.line_style is not None:
                return None
            spec.line_style = ch
        elif ch in SHORT_COLORS:
            if spec.color is not None:
                return None
            spec.color = SHORT_COLORS[ch]
        elif ch in MARKERS and len(ch) == 1:
            if spec.marker is not None:
                return None
            spec.marker = MARKERS[ch]
        else:
            return None
        rest = rest[1:]
    if spec.marker is not None and spec.line_style is None:
        spec.line_style = "None"    # a marker alone: no line, as in MATLAB
    return spec
