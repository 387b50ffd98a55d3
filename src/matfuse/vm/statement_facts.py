"""Name facts of statements while a compilation runs, computed once each.

Every block level asks for the (reads, writes) of the statements nested in
it. Computed afresh, nested blocks cost O(depth^2); copied into a set per
compound statement, they still cost O(depth x names), since every level of a
nest of ``for`` loops with distinct variables writes all the variables below
it. So the facts of a compound statement are computed bottom-up once, and its
writes are not a copied set but a ``NestedWrites`` view: each write is given a
position in one walk of the body (pre-order), every compound statement covers
an interval of positions, and "is ``x`` written inside" is a binary search in
the sorted positions of ``x``.

Reads stay explicit sets (liveness enumerates them), shared between a
statement and its facts.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Iterator, Set
from typing import AbstractSet

from matfuse.lang import ast
from matfuse.vm.names import COMPOUND, stmt_reads_writes, walk_stmt


class _WriteIndex:
    """Positions of the writes of one compilation, per name (sorted: positions
    only grow)."""

    def __init__(self) -> None:
        self.positions: dict[str, list[int]] = {}
        self.count = 0

    def record(self, names: Iterable[str]) -> None:
        for name in names:
            self.positions.setdefault(name, []).append(self.count)
            self.count += 1


class NestedWrites(Set):
    """The names written anywhere in one compound statement (a read-only set:
    membership by binary search, the names themselves built on first use)."""

    __slots__ = ("_index", "_lo", "_hi", "_names")

    def __init__(self, index: _WriteIndex, lo: int, hi: int):
        self._index = index
        self._lo = lo
        self._hi = hi
        self._names: frozenset[str] | None = None

    def __contains__(self, name: object) -> bool:
        positions = self._index.positions.get(name)  # type: ignore[arg-type]
        if not positions:
            return False
        i = bisect_left(positions, self._lo)
        return i < len(positions) and positions[i] < self._hi

    def _all(self) -> frozenset[str]:
        if self._names is None:
            self._names = frozenset(n for n in self._index.positions if n in self)
        return self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __and__(self, other: Iterable[str]) -> frozenset[str]:
        # Iterates the other operand (a live set, usually small), not self.
        return frozenset(n for n in other if n in self)

    __rand__ = __and__

    def __ge__(self, other: AbstractSet[str]) -> bool:
        return all(n in self for n in other)

    def __repr__(self) -> str:
        return f"NestedWrites({sorted(self._all())!r})"

    @classmethod
    def _from_iterable(cls, it: Iterable[str]) -> frozenset[str]:
        return frozenset(it)


class _FactsMemo:
    """Facts of the compound statements of one compilation, keyed by id (the
    node kept to check identity)."""

    def __init__(self) -> None:
        self.index = _WriteIndex()
        self.facts: dict[int, tuple[ast.Stmt, frozenset[str], NestedWrites]] = {}

    def get(self, stmt: ast.Stmt) -> tuple[frozenset[str], NestedWrites]:
        entry = self.facts.get(id(stmt))
        if entry is None or entry[0] is not stmt:
            return self.walk(stmt)
        return entry[1], entry[2]

    def walk(self, stmt: ast.Stmt) -> tuple[frozenset[str], NestedWrites]:
        """Index ``stmt`` and every compound statement inside it (again, so
        that their writes lie inside this statement's interval)."""
        lo = self.index.count
        reads: set[str] = set()
        writes: set[str] = set()
        walk_stmt(stmt, reads, writes, self._walk_body)
        self.index.record(writes)
        facts = (frozenset(reads), NestedWrites(self.index, lo, self.index.count))
        self.facts[id(stmt)] = (stmt, facts[0], facts[1])
        return facts

    def _walk_body(self, body: list[ast.Stmt] | None, reads: set[str], writes: set[str]) -> None:
        for s in body or ():
            if isinstance(s, COMPOUND):
                reads |= self.walk(s)[0]
            else:
                walk_stmt(s, reads, writes, self._walk_body)


_memo: _FactsMemo | None = None
_memo_users = 0


class facts_memo:
    """Context manager enabling the statement-facts memo (re-entrant); the
    memo is dropped when the outermost user leaves (the ``NestedWrites`` kept
    on compiled statements keep their index)."""

    def __enter__(self) -> None:
        global _memo, _memo_users
        if _memo_users == 0:
            _memo = _FactsMemo()
        _memo_users += 1

    def __exit__(self, *exc: object) -> None:
        global _memo, _memo_users
        _memo_users -= 1
        if _memo_users == 0:
            _memo = None


def stmt_facts(stmt: ast.Stmt) -> tuple[AbstractSet[str], AbstractSet[str]]:
    """(names read, names written) by one statement, nested bodies included;
    read-only sets, memoised for compound statements inside ``facts_memo``."""
    if _memo is not None and isinstance(stmt, COMPOUND):
        return _memo.get(stmt)
    return stmt_reads_writes(stmt)


def upward_exposed(body: list[ast.Stmt] | None) -> set[str]:
    """Names a body may read before it definitely writes them (its live-in).

    Only plain ``x = ...`` assignments count as definite writes; indexed
    assignments and writes inside branches or loops may not happen.
    """
    live: set[str] = set()
    for s in reversed(body or []):
        reads, _ = stmt_facts(s)
        if type(s) is ast.Assign and not s.multi and len(s.targets) == 1 \
                and type(s.targets[0]) is ast.Ident:
            live.discard(s.targets[0].name)
        live |= reads
    return live
