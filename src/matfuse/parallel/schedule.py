"""Which iterations of a parfor go out together, and when (client side).

Chunks follow *factoring*: the iterations left are dealt in rounds of one
chunk per worker, each chunk half of an even share of what is left
(``ceil(left / (2 * workers))``). The first chunks are large (few round
trips), the last ones single iterations, so the workers finish together
even when iteration times vary. 64 iterations on 16 workers: 16 chunks of
2, then 16 of 1 and 16 of 1 (4 iterations a worker when they take equal
time).

:class:`ChunkFeeder` keeps one chunk running on each worker and sends a
worker the next chunk when its previous one returns: no worker holds
queued work that an idle worker could have run. Chunks are pinned loosely
(``allow_other_workers``): when a worker dies, Dask runs its chunk on
another one.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Any, Callable


def factoring_chunks(count: int, workers: int) -> list[tuple[int, int]]:
    """[start, stop) index ranges splitting ``count`` iterations into chunks
    for ``workers`` workers, in iteration order."""
    workers = max(1, workers)
    chunks: list[tuple[int, int]] = []
    lo = 0
    while lo < count:
        size = max(1, math.ceil((count - lo) / (2 * workers)))
        for _ in range(workers):
            if lo >= count:
                break
            hi = min(count, lo + size)
            chunks.append((lo, hi))
            lo = hi
    return chunks


class ChunkFeeder:
    """Sends chunks to workers, one at a time each, in chunk order.

    ``submit(index, worker)`` submits chunk ``index`` pinned to ``worker``
    and returns its future. :meth:`start` gives every worker its first
    chunk; :meth:`finished` (a chunk's future returned) gives that worker
    the next one. ``futures`` holds every submitted future and
    ``index_of`` maps a future's key to its chunk index.
    """

    def __init__(self, count: int, workers: list[str], submit: Callable[[int, str], Any]):
        self._pending = deque(range(count))
        self._workers = workers
        self._submit = submit
        self._worker_of: dict[str, str] = {}
        self.futures: list[Any] = []
        self.index_of: dict[str, int] = {}

    def start(self) -> list[Any]:
        """The first chunk of every worker (futures)."""
        sent = [self._send(worker) for worker in self._workers]
        return [f for f in sent if f is not None]

    def finished(self, future: Any) -> Any:
        """The next chunk's future for the worker of ``future``, or None."""
        return self._send(self._worker_of.pop(future.key))

    def _send(self, worker: str) -> Any:
        if not self._pending:
            return None
        index = self._pending.popleft()
        future = self._submit(index, worker)
        self._worker_of[future.key] = worker
        self.index_of[future.key] = index
        self.futures.append(future)
        return future
