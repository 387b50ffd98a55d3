"""The download round trip's polling (``providers/wgpu/staging.py``), with a
stand-in buffer and promise: non-blocking polls first (a blocking poll slept
~10 ms on NVIDIA's Vulkan driver), a blocking one when the budget runs out."""

from __future__ import annotations

import numpy as np

from matfuse.accelerate.providers.wgpu import staging


class FakePromise:
    def __init__(self, settles_after: int | None):
        self._state = "pending"
        self.polls_left = settles_after

    def poll(self, block: bool) -> None:
        if block or (self.polls_left is not None and self.polls_left <= 1):
            self._state = "fulfilled"
        elif self.polls_left is not None:
            self.polls_left -= 1

    def sync_wait(self) -> None:
        assert self._state != "pending"


class FakeBuffer:
    def __init__(self, promise: FakePromise):
        self.promise = promise
        self.unmapped = False

    def map_async(self, mode, offset, size):
        return self.promise

    def read_mapped(self, offset, size, copy=False):
        return memoryview(np.arange(size, dtype=np.uint8).tobytes())

    def unmap(self):
        self.unmapped = True


def run(settles_after: int | None, spin: float) -> list[bool]:
    promise = FakePromise(settles_after)
    calls: list[bool] = []

    def poll(block: bool) -> None:
        calls.append(block)
        promise.poll(block)

    buf = FakeBuffer(promise)
    out = staging.map_and_read(buf, 4, poll, lambda view: np.frombuffer(view, np.uint8).copy(), spin)
    assert out.tolist() == [0, 1, 2, 3] and buf.unmapped
    return calls


def test_spins_without_blocking_until_the_map_settles():
    calls = run(settles_after=5, spin=10.0)
    assert calls == [False] * 5


def test_blocks_once_the_spin_budget_is_spent():
    calls = run(settles_after=None, spin=0.001)
    assert calls[-1] is True and all(c is False for c in calls[:-1])


def test_no_spin_budget_blocks_at_once():
    assert run(settles_after=None, spin=0.0) == [True]
