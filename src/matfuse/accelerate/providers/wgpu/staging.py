"""Download staging: reusable mappable buffers and the blocking map round trip.

wgpu-py's ``queue.read_buffer`` creates a new MAP_READ buffer, records the
copy in its own command encoder, submits it, waits for the map through the
device's poll thread and destroys the buffer: per download one buffer
creation, one extra submit and a thread hand-off (~170 us on the H200).
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

from typing import Callable

import numpy as np

from matfuse.accelerate.providers.wgpu.buffers import size_class

SMALL_STAGING_BYTES = 64 * 1024
STAGING_POOL_BYTES = 256 << 20

#: Block on the device on the calling thread after ``map_async`` (the map
#: callback then usually fires right here) instead of waiting for wgpu-py's
#: poll thread to wake us. ``bench_provider.py`` measures both settings.
POLL_ON_CALLER = True


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


def map_and_read(buf: object, nbytes: int, poll: Callable[[], None] | None,
                 convert: Callable[[memoryview], np.ndarray]) -> np.ndarray:
    """Map the first ``nbytes`` of ``buf`` (already submitted), convert the
    mapped bytes with ``convert`` (which must copy) and unmap.

    Args:
        poll: blocks until the device is idle on this thread (None: rely on
            wgpu-py's poll thread).

    Raises:
        RuntimeError: the map failed (device lost).
    """
    # "READ_NOSYNC": wgpu-py's own read_buffer mode; plain "READ" adds an
    # empty submit (a workaround for maps that did not follow a submit; ours
    # always do).
    promise = buf.map_async("READ_NOSYNC", 0, nbytes)
    if poll is not None:
        poll()
    promise.sync_wait()
    try:
        view = buf.read_mapped(0, nbytes, copy=False)
        result = convert(view)
        del view  # drop our reference before unmap releases the mapping
    finally:
        buf.unmap()
    return result
