"""MATLAB command syntax: ``format long``, ``hold on``, ``disp hello world``.

MATLAB's documented rule for an identifier at the start of a statement: an
``=`` (not ``==``) means assignment, ``(`` means a call; whitespace after the
identifier followed by something that is not a potential operator, or by an
operator that is *not* followed by whitespace, means command syntax
(``ls ./d`` is a command, ``ls ./ d`` and ``ls./d`` are expressions). A name
already assigned in the current scope is a variable and never a command.
"""

from __future__ import annotations

from matfuse.lang._tokens import COMMAND_OPERATORS

_NOT_COMMAND_STARTS = frozenset("\n;,%({")
_WHITESPACE = " \t\f\v"


def looks_like_command(source: str, pos: int) -> bool:
    """Whether the text at ``pos`` (just after an identifier) makes it a command.

    ``pos`` points right after the identifier; the caller has already checked
    that the identifier starts a statement and is not a known variable.
    """
    n = len(source)
    start = pos
    while pos < n and source[pos] in _WHITESPACE:
        pos += 1
    if pos == start or pos >= n:
        return False
    ch = source[pos]
    if ch in _NOT_COMMAND_STARTS or source.startswith("...", pos):
        return False
    if ch == "=":
        # ``a = 1`` assigns; ``a ==b`` is an operator without space after it.
        if not source.startswith("==", pos):
            return False
    for op in COMMAND_OPERATORS:
        if source.startswith(op, pos):
            after = pos + len(op)
            return not (after >= n or source[after] in _WHITESPACE or source[after] == "\n")
    return True


def scan_command_args(source: str, pos: int) -> tuple[list[str], int, int | None]:
    """Split the rest of a command statement into words.

    Words are separated by whitespace; quoted parts (``'it''s'``, ``"a b"``)
    keep their spaces. The statement ends at a newline, ``;``, ``,`` or ``%``
    outside quotes; ``...`` continues it on the next line. Returns the words,
    the position of the terminator (left for the lexer to emit) and the
    position of an unterminated quote (None when all quotes close).
    """
    n = len(source)
    args: list[str] = []
    word: list[str] = []
    in_word = False
    while pos < n:
        ch = source[pos]
        if ch in _WHITESPACE:
            if in_word:
                args.append("".join(word))
                word, in_word = [], False
            pos += 1
            continue
        if ch in "\n;,%":
            break
        if ch == "." and source.startswith("...", pos) and not in_word:
            newline = source.find("\n", pos)
            pos = n if newline < 0 else newline + 1
            continue
        if ch in "'\"":
            end = _scan_quoted(source, pos, ch, word)
            if end < 0:
                return args, pos, pos
            pos = end
            in_word = True
            continue
        word.append(ch)
        in_word = True
        pos += 1
    if in_word:
        args.append("".join(word))
    return args, pos, None


def _scan_quoted(source: str, pos: int, quote: str, word: list[str]) -> int:
    """Append the quoted text starting at ``pos`` to ``word``; return the
    position after the closing quote, or -1 when the line ends first."""
    n = len(source)
    pos += 1
    while pos < n:
        ch = source[pos]
        if ch == "\n":
            return -1
        if ch == quote:
            if pos + 1 < n and source[pos + 1] == quote:
                word.append(quote)
                pos += 2
                continue
            return pos + 1
        word.append(ch)
        pos += 1
    return -1
