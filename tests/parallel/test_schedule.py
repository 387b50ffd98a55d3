"""Chunk sizes (factoring) and the one-chunk-per-worker feeder."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from matfuse.parallel.schedule import ChunkFeeder, factoring_chunks


@pytest.mark.parametrize("count,workers", [(64, 16), (1, 4), (3, 8), (17, 2), (1000, 7),
                                           (16, 16), (100000, 16)])
def test_chunks_cover_every_iteration_once_in_order(count, workers):
    chunks = factoring_chunks(count, workers)
    assert chunks[0][0] == 0 and chunks[-1][1] == count
    assert all(a[1] == b[0] for a, b in zip(chunks, chunks[1:]))
    sizes = [hi - lo for lo, hi in chunks]
    assert min(sizes) >= 1
    assert sizes == sorted(sizes, reverse=True)


def test_equal_iterations_give_every_worker_the_same_share():
    # 64 on 16 workers: rounds of 2, 1, 1 -> 4 iterations a worker.
    chunks = factoring_chunks(64, 16)
    assert [hi - lo for lo, hi in chunks] == [2] * 16 + [1] * 16 + [1] * 16


def test_chunk_count_grows_with_the_log_of_the_iterations():
    small = len(factoring_chunks(1_000, 16))
    large = len(factoring_chunks(1_000_000, 16))
    assert large < small * 3


@dataclass
class _Future:
    key: str


def test_feeder_keeps_one_chunk_per_worker_in_chunk_order():
    sent = []

    def submit(index, worker):
        sent.append((index, worker))
        return _Future(f"k{index}")

    feeder = ChunkFeeder(5, ["a", "b"], submit)
    first = feeder.start()
    assert sent == [(0, "a"), (1, "b")] and len(first) == 2
    nxt = feeder.finished(first[1])           # b finished first: b gets chunk 2
    assert sent[-1] == (2, "b")
    feeder.finished(first[0])
    assert sent[-1] == (3, "a")
    feeder.finished(nxt)
    assert sent[-1] == (4, "b")
    assert feeder.finished(_Future("k3")) is None     # nothing left
    assert feeder.index_of == {f"k{i}": i for i in range(5)}
