"""MATLAB's text interpreters on matplotlib text.

MATLAB's default ``'tex'`` interpreter reads ``x^2``, ``x_{10}``,
``\\alpha`` and the modifiers ``\\bf``/``\\it``/``\\rm``; matplotlib reads
``$...$`` mathtext. ``to_mathtext`` rewrites the first into the second (and
protects literal ``$``); ``'latex'`` text is passed on (matplotlib's mathtext
covers the common subset); ``'none'`` shows the text as it is.
"""

from __future__ import annotations

import re

SYMBOLS = frozenset("""
alpha beta gamma delta epsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi rho
sigma varsigma tau upsilon phi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon
Phi Psi Omega infty pm mp times div cdot circ bullet leq geq neq approx equiv sim propto
partial nabla sum prod int oint sqrt rightarrow leftarrow uparrow downarrow leftrightarrow
Rightarrow Leftarrow Leftrightarrow forall exists in notin subset supset subseteq supseteq
cap cup wedge vee neg langle rangle ldots cdots perp angle deg prime Re Im aleph wp oplus
otimes oslash clubsuit diamondsuit heartsuit spadesuit copyright surd lfloor rfloor lceil
rceil mid varpi
""".split())
_MODIFIERS = frozenset({"bf", "it", "rm", "sl"})
_WITH_ARGUMENT = frozenset({"fontname", "fontsize", "color"})
_WORD = re.compile(r"[A-Za-z]+")


def convert(text: str, interpreter: str) -> str:
    """Text for matplotlib under MATLAB's Interpreter setting."""
    if interpreter == "latex":
        return text
    if interpreter == "none":
        return text.replace("$", r"\$")
    return to_mathtext(text)


def _group(text: str, i: int) -> tuple[str, int]:
    """The ``{...}`` group or single character at ``i``; (content, next index)."""
    if i >= len(text):
        return "", i
    if text[i] == "{":
        depth, j = 1, i + 1
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        return text[i + 1:j - 1] if depth == 0 else text[i + 1:], j
    if text[i] == "\\":
        match = _WORD.match(text, i + 1)
        if match:
            return text[i:match.end()], match.end()
    return text[i], i + 1


def _math_inner(text: str) -> str:
    """Script content as mathtext: symbols kept, the rest upright."""
    out: list[str] = []
    plain: list[str] = []

    def flush() -> None:
        if plain:
            escaped = "".join("\\ " if c == " " else "\\" + c if c in "{}$#%&_^" else c
                              for c in plain)
            out.append("\\mathrm{" + escaped + "}")
            plain.clear()

    i = 0
    while i < len(text):
        if text[i] == "\\":
            match = _WORD.match(text, i + 1)
            if match and match.group(0) in SYMBOLS:
                flush()
                out.append("\\" + match.group(0) + " ")
                i = match.end()
                continue
            if match and match.group(0) in _MODIFIERS:
                i = match.end()
                continue
            if i + 1 < len(text):
                plain.append(text[i + 1])
                i += 2
                continue
        plain.append(text[i])
        i += 1
    flush()
    return "".join(out)


def to_mathtext(text: str) -> str:
    """MATLAB TeX markup as matplotlib mathtext (plain text is unchanged)."""
    if not any(c in text for c in "\\^_$"):
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            match = _WORD.match(text, i + 1)
            if match:
                name = match.group(0)
                if name in SYMBOLS:
                    out.append(f"$\\{name}$")
                    i = match.end()
                    continue
                if name in _MODIFIERS:
                    i = match.end()
                    continue
                if name in _WITH_ARGUMENT:
                    _, i = _group(text, match.end())
                    continue
                out.append("\\" + name)
                i = match.end()
                continue
            literal = text[i + 1]
            out.append(r"\$" if literal == "$" else literal)
            i += 2
            continue
        if c in "^_" and i + 1 < len(text):
            content, i = _group(text, i + 1)
            script = "^" if c == "^" else "_"
            out.append(f"$\\mathdefault{{}}{script}{{{_math_inner(content)}}}$")
            continue
        out.append(r"\$" if c == "$" else c)
        i += 1
    return "".join(out)
