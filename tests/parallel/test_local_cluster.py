"""The local pool's cluster closes a worker's nanny only when the worker
stays away: a worker that registers again cancels its lost-worker timer
(Dask's SpecCluster keeps it, and a timer left by one restart closed the
nanny in the middle of a later restart of the same worker)."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("distributed")

from matfuse.parallel import local_cluster  # noqa: E402
from matfuse.parallel.local_cluster import LocalPoolCluster  # noqa: E402


class _Nanny:
    def __init__(self) -> None:
        self.closed = False

    async def close(self) -> None:
        self.closed = True


class _FakeCluster:
    """The attributes LocalPoolCluster's worker bookkeeping reads."""

    _update_worker_status = LocalPoolCluster._update_worker_status
    _close_if_still_lost = LocalPoolCluster._close_if_still_lost

    def __init__(self) -> None:
        self._lost_timers = {}
        self._futures = set()
        self.nanny = _Nanny()
        self.workers = {1: self.nanny}
        self.scheduler_info = {"workers": {}}

    def add(self, address: str) -> None:
        self._update_worker_status("add", {"workers": {address: {"name": 1}}})

    def remove(self, address: str) -> None:
        self._update_worker_status("remove", address)


def _play(steps, monkeypatch) -> _FakeCluster:
    monkeypatch.setattr(local_cluster, "RESTART_TIMEOUT_S", 0.05)
    cluster = _FakeCluster()

    async def main() -> None:
        for step in steps:
            await step(cluster)
        await asyncio.sleep(0.1)          # past every timer
        if cluster._futures:
            await asyncio.gather(*cluster._futures)

    asyncio.run(main())
    return cluster


def _step(method: str, address: str):
    async def step(cluster):
        getattr(cluster, method)(address)
        await asyncio.sleep(0.02)
    return step


def test_a_worker_restarted_twice_keeps_its_nanny(monkeypatch):
    # Removed, back, removed again and back: the first removal's timer fires
    # (0.05 s on) while the worker is away for the second time.
    steps = [_step("add", "a"), _step("remove", "a"), _step("add", "b"),
             _step("remove", "b"), _step("add", "c")]
    cluster = _play(steps, monkeypatch)
    assert not cluster.nanny.closed
    assert 1 in cluster.workers and not cluster._lost_timers


def test_a_worker_that_stays_away_has_its_nanny_closed(monkeypatch):
    cluster = _play([_step("add", "a"), _step("remove", "a")], monkeypatch)
    assert cluster.nanny.closed
    assert 1 not in cluster.workers
