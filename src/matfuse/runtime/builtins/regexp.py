"""Regular expressions: regexp, regexpi, regexprep.

MATLAB's syntax is translated to Python's ``re``: ``(?<name>...)`` becomes
``(?P<name>...)``, ``\\<``/``\\>`` become word boundaries, and ``$N`` in a
replacement becomes group N.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._text_args import char_row_text, make_char, rebuild, text_arg
from matfuse.runtime.printf import process_escapes
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    StructArray,
    canonical,
    to_str,
)

_OUTPUT_KEYS = ("start", "end", "tokenextents", "match", "tokens", "names", "split")
# Flags as plain ints: combining RegexFlag enum members costs more than a match.
_IGNORECASE = int(re.IGNORECASE)
_MULTILINE = int(re.MULTILINE)
_DOTALL = int(re.DOTALL)
_VERBOSE = int(re.VERBOSE)


_INLINE_FLAGS = re.compile(r"\(\?(-?)([imsx]+)\)")


def _scope_inline_flags(pattern: str) -> str:
    """MATLAB's ``(?i)``/``(?-s)``... apply from where they stand to the end
    of the enclosing group; Python wants them scoped: ``(?-s:...)``."""
    m = _INLINE_FLAGS.search(pattern)
    while m is not None:
        start = m.start()
        if start > 0 and pattern[start - 1] == "\\":
            m = _INLINE_FLAGS.search(pattern, m.end())
            continue
        depth, k, escaped, in_class = 0, m.end(), False, False
        while k < len(pattern):
            c = pattern[k]
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif in_class:
                in_class = c != "]"
            elif c == "[":
                in_class = True
            elif c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    break
                depth -= 1
            k += 1
        flags = ("-" if m.group(1) else "") + m.group(2)
        pattern = pattern[:start] + f"(?{flags}:" + pattern[m.end():k] + ")" + pattern[k:]
        m = _INLINE_FLAGS.search(pattern, start + len(flags) + 3)
    return pattern


def translate_pattern(pattern: str) -> str:
    """MATLAB regular expression -> Python ``re`` syntax."""
    out = _scope_inline_flags(pattern)
    out = re.sub(r"\(\?<([A-Za-z]\w*)>", r"(?P<\1>", out)
    out = re.sub(r"\\k<([A-Za-z]\w*)>", r"(?P=\1)", out)
    out = out.replace(r"\<", r"\b").replace(r"\>", r"\b")
    return out


# MATLAB pattern and flags -> compiled Python pattern (loops match the same
# few patterns over and over; translating one costs more than matching).
_COMPILED: dict[tuple[str, int], re.Pattern] = {}
_COMPILED_LIMIT = 256


def _compile(pattern: str, flags: int, fn: str) -> re.Pattern:
    key = (pattern, flags)
    found = _COMPILED.get(key)
    if found is not None:
        return found
    try:
        compiled = re.compile(translate_pattern(pattern), flags)
    except re.error as exc:
        raise MatlabError(f"MATLAB:{fn}:invalidPattern" if fn else "MATLAB:regexp:invalidPattern",
                          f"The regular expression is invalid: {exc}.") from None
    if len(_COMPILED) >= _COMPILED_LIMIT:
        _COMPILED.clear()
    _COMPILED[key] = compiled
    return compiled


def _char(text: str) -> np.ndarray:
    return make_char(text) if text else np.zeros((1, 0), dtype=CHAR_DTYPE)


def _row(values: list[float]) -> Any:
    if not values:
        return np.zeros((1, 0))
    return canonical(np.array([values], dtype=np.float64))


def _tokens_of(m: re.Match) -> list[str]:
    if m.re.groups == 0:
        return [m.group(0)]
    return [g if g is not None else "" for g in m.groups()]


def _names_struct(pattern: re.Pattern, matches: list[re.Match], once: bool) -> StructArray:
    names = list(pattern.groupindex)
    if once:
        if not matches:
            return StructArray(names, np.empty((0, 0), dtype=object)) if names else StructArray.scalar({})
        return StructArray.scalar({n: _char(matches[0].group(n) or "") for n in names})
    if not names:
        return StructArray.scalar({})
    data = np.empty((1, len(matches)) if matches else (0, 0), dtype=object)
    for i, m in enumerate(matches):
        data[0, i] = {n: _char(m.group(n) or "") for n in names}
    return StructArray(names, data)


def _outputs_for(text: str, pattern: re.Pattern, keys: list[str], once: bool,
                 empty_match: bool = False) -> list[Any]:
    matches = [m for m in pattern.finditer(text) if empty_match or m.end() > m.start()]
    if once:
        matches = matches[:1]
    out: list[Any] = []
    for key in keys:
        if key == "match":
            if once:
                out.append(_char(matches[0].group(0)) if matches else np.zeros((0, 0), dtype=CHAR_DTYPE))
            else:
                out.append(CellArray.from_list([_char(m.group(0)) for m in matches], (1, len(matches))))
        elif key == "tokens":
            per = [CellArray.from_list([_char(t) for t in _tokens_of(m)]) for m in matches]
            if once:
                out.append(per[0] if per else CellArray.empty((1, 0)))
            else:
                out.append(CellArray.from_list(per, (1, len(per))))
        elif key == "names":
            out.append(_names_struct(pattern, matches, once))
        elif key == "start":
            starts = [float(m.start() + 1) for m in matches]
            out.append((starts[0] if starts else np.zeros((1, 0))) if once else _row(starts))
        elif key == "end":
            ends = [float(m.end()) for m in matches]
            out.append((ends[0] if ends else np.zeros((1, 0))) if once else _row(ends))
        elif key == "tokenextents":
            ext = [_extents(m) for m in matches]
            if once:
                out.append(ext[0] if ext else np.zeros((0, 2)))
            else:
                out.append(CellArray.from_list(ext, (1, len(ext))))
        elif key == "split":
            pieces, pos = [], 0
            for m in matches:
                pieces.append(_char(text[pos:m.start()]))
                pos = m.end()
            pieces.append(_char(text[pos:]))
            out.append(CellArray.from_list(pieces, (1, len(pieces))))
    return out


def _extents(m: re.Match) -> np.ndarray:
    if m.re.groups == 0:
        return np.array([[m.start() + 1, m.end()]], dtype=np.float64)
    rows = [[m.start(g) + 1, m.end(g)] if m.start(g) >= 0 else [m.start(0) + 1, m.start(0)]
            for g in range(1, m.re.groups + 1)]
    return np.array(rows, dtype=np.float64)


# Output selectors and 'once' as the code units of their char rows.
_ROW_OPTIONS = {np.array([list(word)]).tobytes(): word for word in (*_OUTPUT_KEYS, "once")}

# What a char-row call does, by its pattern's and options' code units, the
# number of outputs and the case mode: (compiled pattern, output keys in
# order, once), or None when an option needs the general path. Loops call
# regexp with the same few literal patterns: this skips decoding them,
# reading the options and the translation cache's string key.
_ROW_PLANS: dict[tuple, tuple[re.Pattern, tuple[str, ...], bool] | None] = {}
_ROW_PLANS_LIMIT = 256


def _row_plan(args: tuple[Any, ...], nargout: int, ignore_case: bool,
              fn: str) -> tuple[re.Pattern, tuple[str, ...], bool] | None:
    keys: list[str] = []
    once = False
    for a in args[2:]:
        word = _ROW_OPTIONS.get(a.tobytes())
        if word is None:
            return None
        if word == "once":
            once = True
        else:
            keys.append(word)
    flags = (_IGNORECASE if ignore_case else 0) | _DOTALL
    compiled = _compile(char_row_text(args[1]), flags, fn)
    wanted = max(nargout, 1)
    if keys:
        order = (keys + [k for k in _OUTPUT_KEYS if k not in keys])[:max(wanted, len(keys))]
    else:
        order = list(_OUTPUT_KEYS[:wanted])
    return compiled, tuple(order), once


def _char_row(text: str) -> np.ndarray:
    """A char row of ``text`` (1x0 when empty, as ``_char``)."""
    if not text:
        return np.zeros((1, 0), dtype=CHAR_DTYPE)
    return np.array(text, ndmin=2).view(CHAR_DTYPE)


def _cell_row(values: list[Any]) -> CellArray:
    """A 1xN cell of ``values`` (``CellArray.from_list`` of a row)."""
    data = np.empty((1, len(values)), dtype=object)
    for i, v in enumerate(values):
        data[0, i] = v
    return CellArray(data)


def _char_rows_regexp(args: tuple[Any, ...], nargout: int, ignore_case: bool, fn: str) -> Any:
    """``regexp(text, pattern, selectors...)`` with char rows only and no
    options besides output selectors and 'once' (the loop case): what the
    general path returns, without parsing text arguments; None otherwise."""
    for a in args:
        if type(a) is not np.ndarray or a.dtype != CHAR_DTYPE or a.ndim != 2 or a.shape[0] != 1:
            return None
    key = (ignore_case, nargout, *[a.tobytes() for a in args[1:]])
    plan = _ROW_PLANS.get(key, False)
    if plan is False:
        plan = _row_plan(args, nargout, ignore_case, fn)
        if len(_ROW_PLANS) >= _ROW_PLANS_LIMIT:
            _ROW_PLANS.clear()
        _ROW_PLANS[key] = plan
    if plan is None:
        return None
    compiled, order, once = plan
    text = char_row_text(args[0])
    if len(order) == 1 and not once:
        # One selector, all matches (``'match'``/``'tokens'`` in loops).
        word = order[0]
        if word == "match":
            return _cell_row([_char_row(m.group(0)) for m in compiled.finditer(text)
                              if m.end() > m.start()])
        if word == "tokens":
            groups = compiled.groups
            return _cell_row([
                _cell_row([_char_row(t or "") for t in m.groups()] if groups
                          else [_char_row(m.group(0))])
                for m in compiled.finditer(text) if m.end() > m.start()])
    results = _outputs_for(text, compiled, list(order), once)
    wanted = max(nargout, 1)
    return tuple(results[:wanted]) if wanted > 1 else results[0]


def _regexp(args: tuple[Any, ...], nargout: int, ignore_case: bool, fn: str) -> Any:
    if len(args) < 2:
        raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
    quick = _char_rows_regexp(args, nargout, ignore_case, fn)
    if quick is not None:
        return quick
    text, pattern, *options = args
    keys: list[str] = []
    once = False
    empty_match = False
    flags = _IGNORECASE if ignore_case else 0
    words = [to_str(opt).lower() for opt in options]
    for opt, word in zip(options, words):
        if word in _OUTPUT_KEYS:
            keys.append(word)
        elif word == "once":
            once = True
        elif word == "ignorecase":
            flags |= _IGNORECASE
        elif word == "matchcase":
            flags &= ~_IGNORECASE
        elif word in ("lineanchors",):
            flags |= _MULTILINE
        elif word in ("dotexceptnewline",):
            continue
        elif word in ("emptymatch", "noemptymatch"):
            empty_match = word == "emptymatch"
        elif word in ("dotall", "stringanchors", "literalspacing", "forceCellOutput".lower()):
            continue
        elif word == "freespacing":
            flags |= _VERBOSE
        else:
            raise MatlabError(f"MATLAB:{fn}:UnknownOption" if fn else "MATLAB:regexp:UnknownOption",
                              f"Invalid option '{to_str(opt)}'.")
    if "dotexceptnewline" not in words:
        flags |= _DOTALL
    default_order = list(_OUTPUT_KEYS)
    wanted = max(nargout, 1)
    order = keys + [k for k in default_order if k not in keys]
    order = order[:max(wanted, len(keys))] if keys else default_order[:wanted]
    pats = text_arg(pattern, fn, "Pattern")
    texts = text_arg(text, fn, "First argument")
    if not pats.items:
        raise MatlabError(f"MATLAB:{fn}:invalidPattern", "The regular expression must not be an empty cell.")
    if pats.kind == "cell" and len(pats.items) != 1 and texts.kind == "char" and len(texts.items) == 1:
        # One text, several expressions: one result per expression.
        per_pattern = [_outputs_for(texts.items[0], _compile(p or "", flags, fn), order, once, empty_match)
                       for p in pats.items]
        results = [CellArray.from_list([r[k] for r in per_pattern], pats.shape) for k in range(len(order))]
        return tuple(results[:wanted]) if wanted > 1 else results[0]
    if pats.kind == "cell" and len(pats.items) != 1:
        if len(pats.items) != len(texts.items):
            raise MatlabError(f"MATLAB:{fn}:CellSizeMismatch",
                              "Cell arrays of text and expressions must have the same size.")
        compiled = [_compile(p or "", flags, fn) for p in pats.items]
    else:
        compiled = [_compile(pats.items[0] or "", flags, fn)]
    if texts.kind == "char" and len(texts.items) == 1 and len(compiled) == 1:
        results = _outputs_for(texts.items[0], compiled[0], order, once, empty_match)
    else:
        per_item = []
        for i, s in enumerate(texts.items):
            pat = compiled[i] if len(compiled) > 1 else compiled[0]
            per_item.append(_outputs_for(s or "", pat, order, once, empty_match))
        shape = texts.shape if len(texts.items) > 1 or texts.kind != "char" else (1, 1)
        results = [CellArray.from_list([r[k] for r in per_item], shape) for k in range(len(order))]
    return tuple(results[:wanted]) if wanted > 1 else results[0]


@builtin("regexp", category="strings", nargin=(2, None), nargout=(0, None), wants_nargout=True)
def regexp(*args: Any, nargout: int = 1) -> Any:
    """Match a regular expression (case sensitive)."""
    return _regexp(args, nargout, False, "regexp")


@builtin("regexpi", category="strings", nargin=(2, None), nargout=(0, None), wants_nargout=True)
def regexpi(*args: Any, nargout: int = 1) -> Any:
    """Match a regular expression ignoring case."""
    return _regexp(args, nargout, True, "regexpi")


def _replacement(template: str):
    """A re.sub callback for MATLAB's replacement text ($N, escapes)."""
    parts: list[tuple[str, Any]] = []
    i = 0
    literal: list[str] = []
    while i < len(template):
        ch = template[i]
        if ch == "$" and i + 1 < len(template) and template[i + 1].isdigit():
            j = i + 1
            while j < len(template) and template[j].isdigit():
                j += 1
            parts.append(("lit", "".join(literal)))
            literal = []
            parts.append(("grp", int(template[i + 1:j])))
            i = j
            continue
        named = re.match(r"\$<([A-Za-z]\w*)>", template[i:])
        if named:
            parts.append(("lit", "".join(literal)))
            literal = []
            parts.append(("name", named.group(1)))
            i += named.end()
            continue
        if ch == "$" and template[i + 1:i + 2] == "{":
            raise MatlabError("MATLAB:regexprep:dynamicExpression",
                              "Dynamic expressions in replacement text are not supported.")
        if ch == "\\" and i + 1 < len(template):
            literal.append(process_escapes(template[i:i + 2]) if template[i + 1] in "ntrafv\\" else template[i + 1])
            i += 2
            continue
        literal.append(ch)
        i += 1
    parts.append(("lit", "".join(literal)))

    def substitute(m: re.Match) -> str:
        out = []
        for kind, val in parts:
            if kind == "lit":
                out.append(val)
            elif kind == "name":
                out.append((m.group(val) or "") if val in m.re.groupindex else "")
            elif val <= (m.re.groups or 0):
                out.append(m.group(val) or "")
        return "".join(out)

    return substitute


@builtin("regexprep", category="strings", nargin=(3, None))
def regexprep(text: Any, pattern: Any, replacement: Any, *options: Any) -> Any:
    """Replace matches of a regular expression ($1 refers to token 1)."""
    flags = re.DOTALL
    count = 0
    empty_match = False
    for opt in options:
        word = to_str(opt).lower()
        if word == "once":
            count = 1
        elif word == "ignorecase":
            flags |= re.IGNORECASE
        elif word in ("emptymatch", "noemptymatch"):
            empty_match = word == "emptymatch"
        elif word in ("matchcase", "preservecase"):
            continue
        elif word == "lineanchors":
            flags |= re.MULTILINE
        elif word == "dotexceptnewline":
            flags &= ~re.DOTALL
        else:
            raise MatlabError("MATLAB:regexprep:UnknownOption", f"Invalid option '{to_str(opt)}'.")
    texts = text_arg(text, "regexprep", "First argument")
    pats = [p or "" for p in text_arg(pattern, "regexprep", "Pattern").items]
    reps = [r or "" for r in text_arg(replacement, "regexprep", "Replacement").items]
    if len(reps) not in (1, len(pats)):
        raise MatlabError("MATLAB:regexprep:ReplaceMismatch",
                          "The number of replacement strings must be 1 or equal to the number of expressions.")
    compiled = [(_compile(p, flags, "regexprep"), _replacement(reps[i] if len(reps) > 1 else reps[0]))
                for i, p in enumerate(pats)]
    out = []
    for s in texts.items:
        value = s or ""
        for pat, rep in compiled:
            value = _substitute(pat, rep, value, count, empty_match)
        out.append(value)
    return rebuild(texts, out)


def _substitute(pat: re.Pattern, rep: Any, text: str, count: int, empty_match: bool) -> str:
    """pat.sub, where zero-length matches are left alone unless 'emptymatch'
    (MATLAB's default is 'noemptymatch')."""
    if empty_match:
        return pat.sub(rep, text, count=count)
    pieces: list[str] = []
    done = 0
    replaced = 0
    for m in pat.finditer(text):
        if m.end() == m.start():
            continue
        pieces.append(text[done:m.start()])
        pieces.append(rep(m) if callable(rep) else m.expand(rep))
        done = m.end()
        replaced += 1
        if count and replaced >= count:
            break
    pieces.append(text[done:])
    return "".join(pieces)
