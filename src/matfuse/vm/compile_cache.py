"""A small LRU cache of compiled REPL / ``Session.eval`` / ``eval`` text.

A benchmark that evaluates the same script again and again should pay for
parsing and compiling once. What a text compiles to depends on more than the
text, so the key holds every input the parser and compiler read:

* the source text and its file name;
* a *scope token*: what calls in the text resolve against before the path
  (the REPL's function-definition version, or the eval caller's FileScope);
* the workspace's global names (``global x`` changes how ``x`` compiles);
* the workspace variables that occur in the text as identifiers: the parser
  reads ``x -1`` as an expression when ``x`` is a variable and as command
  syntax otherwise. Names that do not occur in the text cannot matter, so
  the key takes the intersection (a superset of what the parser consults).

Texts that define functions are not cached: re-running them must define
fresh functions (with fresh persistent variables).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Container, Set
from typing import Any, Hashable

_IDENTIFIER = re.compile(r"[A-Za-z]\w*")

DEFAULT_CAPACITY = 64


def identifiers_in(source: str) -> frozenset[str]:
    """Every identifier-like word of ``source`` (keywords and words inside
    strings or comments included: over-approximating is safe)."""
    return frozenset(_IDENTIFIER.findall(source))


class _Entry:
    """All compiled variants of one (source, file, scope, globals) key."""

    __slots__ = ("words", "variants")

    def __init__(self, words: frozenset[str]):
        self.words = words
        self.variants: dict[frozenset[str], Any] = {}


class CompileCache:
    """LRU map from (text, file, scope token, globals, relevant variables)
    to a compiled result; at most ``capacity`` texts are kept."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY):
        self.capacity = capacity
        self._entries: OrderedDict[tuple, _Entry] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()

    @staticmethod
    def _base_key(kind: str, source: str, file: str | None, scope_token: Hashable,
                  global_names: Set[str]) -> tuple:
        return (kind, source, file, scope_token, frozenset(global_names))

    def lookup(self, kind: str, source: str, file: str | None, scope_token: Hashable,
               global_names: Set[str], variables: Container[str]) -> tuple[tuple, frozenset[str], Any]:
        """(key, relevant variables, compiled or None) for this text here.

        ``variables`` is the workspace (a Frame); global names count as
        variables too. The relevant variables are what to pass to ``parse``.
        """
        key = self._base_key(kind, source, file, scope_token, global_names)
        entry = self._entries.get(key)
        words = entry.words if entry is not None else identifiers_in(source)
        if isinstance(variables, dict):
            # C-level set operations: this runs once per top-level command.
            relevant = words.intersection(variables.keys())
            if global_names:
                relevant = relevant | words.intersection(global_names)
        else:
            relevant = frozenset(name for name in words
                                 if name in variables or name in global_names)
        if entry is not None:
            compiled = entry.variants.get(relevant)
            if compiled is not None:
                self._entries.move_to_end(key)
                self.hits += 1
                return key, relevant, compiled
        self.misses += 1
        return key, relevant, None

    def store(self, key: tuple, relevant: frozenset[str], compiled: Any) -> None:
        entry = self._entries.get(key)
        if entry is None:
            entry = _Entry(identifiers_in(key[1]))
            self._entries[key] = entry
        else:
            self._entries.move_to_end(key)
        # A few workspace states per text at most (first run vs later runs).
        if len(entry.variants) >= 4:
            entry.variants.clear()
        entry.variants[relevant] = compiled
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)
