"""Download staging: reusable mappable buffers and the blocking map round trip.

wgpu-py's ``queue.read_buffer`` creates a new MAP_READ buffer, records the
copy in its own command encoder, submits it, waits for the map through the
device's poll thread and destroys the buffer: per download one buffer
creation, one extra submit and a thread hand-off.
Here a download records ``copy_buffer_to_buffer`` into a reused staging
buffer in the *same* encoder as the pending work, so one submit carries the
kernels and the copy, then maps the staging buffer on the calling thread.

Small downloads (<= 64 KiB: scalars, reduction results, sync probes) share
one persistent staging buffer; larger ones take a buffer of their size class
from a pool capped at ``STAGING_POOL_BYTES`` (host-visible memory is
precious on some drivers; a buffer that does not fit is destroyed after use).
Everything here is synchronous: a staging buffer is unmapped before it is
handed out again.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from matfuse.accelerate.providers.wgpu.buffers import size_class

SMALL_STAGING_BYTES = 64 * 1024
STAGING_POOL_BYTES = 256 << 20

#: Poll the device on the calling thread after ``map_async`` (the map
#: callback then fires right here) instead of waiting for wgpu-py's poll
#: thread to wake us. ``bench_provider.py`` measures both settings.
POLL_ON_CALLER = True
#: How long the calling thread polls without blocking before it blocks. A
#: blocking poll while the GPU still works slept ~10 ms on NVIDIA's Vulkan
#: driver (H100, session 4: image normalisation 11.7 -> 1.8 ms per script,
#: Monte-Carlo 11.9 -> 2.9 ms with non-blocking polls). Past this budget the
#: GPU work is long and the sleep a small share of it. Real GPUs only: on a
#: CPU adapter (lavapipe) the spinning thread would take a core from the
#: device's own worker threads.
SPIN_SECONDS = 0.05


class StagingPool:
    """MAP_READ|COPY_DST buffers for downloads, reused across calls."""

    def __init__(self, device: object, max_buffer_bytes: int):
        import wgpu

        self._device = device
        self._usage = wgpu.BufferUsage.MAP_READ | wgpu.BufferUsage.COPY_DST
        self._max = int(max_buffer_bytes)
        self._small = device.create_buffer(size=SMALL_STAGING_BYTES, usage=self._usage)
        self._pool: dict[int, object] = {}
        self._pool_bytes = 0
        self.created = 1

    def take(self, nbytes: int) -> object:
        """A staging buffer of at least ``nbytes`` (unmapped)."""
        if nbytes <= SMALL_STAGING_BYTES:
            return self._small
        cap = min(size_class(nbytes), self._max)
        buf = self._pool.pop(cap, None)
        if buf is not None:
            self._pool_bytes -= cap
            return buf
        self.created += 1
        return self._device.create_buffer(size=cap, usage=self._usage)

    def give_back(self, buf: object, healthy: bool = True) -> None:
        """Return ``buf`` after use; ``healthy=False`` after a failed map
        (the buffer's state is unknown: it is destroyed, never reused)."""
        if buf is self._small:
            if not healthy:
                self._small = self._device.create_buffer(size=SMALL_STAGING_BYTES,
                                                         usage=self._usage)
                self.created += 1
            return
        cap = int(buf.size)
        if not healthy or cap in self._pool or self._pool_bytes + cap > STAGING_POOL_BYTES:
            buf.destroy()
            return
        self._pool[cap] = buf
        self._pool_bytes += cap

    def trim(self) -> None:
        """Destroy the pooled large staging buffers (the small one stays)."""
        for buf in self._pool.values():
            buf.destroy()
        self._pool.clear()
        self._pool_bytes = 0

    @property
    def pooled_bytes(self) -> int:
        return self._pool_bytes


def map_and_read(buf: object, nbytes: int, poll: Callable[[bool], None] | None,
                 convert: Callable[[memoryview], np.ndarray], spin_seconds: float = 0.0) -> np.ndarray:
    """Map the first ``nbytes`` of ``buf`` (already submitted), convert the
    mapped bytes with ``convert`` (which must copy) and unmap.

    Args:
        poll: ``poll(block)`` polls the device on this thread; ``block``
            waits until it is idle (None: rely on wgpu-py's poll thread).
        spin_seconds: poll without blocking for up to this long first.

    Raises:
        RuntimeError: the map failed (device lost).
    """
    # "READ_NOSYNC": wgpu-py's own read_buffer mode; plain "READ" adds an
    # empty submit (a workaround for maps that did not follow a submit; ours
    # always do).
    promise = buf.map_async("READ_NOSYNC", 0, nbytes)
    if poll is not None:
        if spin_seconds > 0.0:
            deadline = time.perf_counter() + spin_seconds
            while _pending(promise) and time.perf_counter() < deadline:
                poll(False)
        if _pending(promise):
            poll(True)
    promise.sync_wait()
    try:
        view = buf.read_mapped(0, nbytes, copy=False)
        result = convert(view)
        del view  # drop our reference before unmap releases the mapping
    finally:
        buf.unmap()
    return result


def _pending(promise: object) -> bool:
    """Whether a wgpu-py promise has not settled (its private state, wgpu
    0.32; without it, treat it as pending: the blocking poll settles it)."""
    return getattr(promise, "_state", "pending") == "pending"
