"""Device buffers: the handle table, pooling by size class, quarantine.

Every tensor lives in one STORAGE|COPY_SRC|COPY_DST buffer whose size is
rounded up to a size class (powers of two from 256 B, then 1/8 steps), so a
freed buffer can serve a later tensor of similar size. A buffer freed while
a batch is open is "dirty": commands already recorded may still read it.
Kernel outputs may reuse it at once (later commands of the same encoder run
after those reads), and so may small uploads (in-stream copies from the
uniform arena, ``encoder.upload_small``), but large uploads may not:
``queue.write_buffer`` runs before the whole pending batch. Dirty buffers
become clean after the next submit (``release_quarantine``); with no batch
open a freed buffer is clean at once (earlier submits are ordered before any
later ``write_buffer``).
"""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass
from typing import Callable

import numpy as np

from matfuse.accelerate_api import Unsupported

#: element storage on the device: numpy dtype name -> (WGSL type, bytes)
DEVICE_TYPES: dict[str, tuple[str, int]] = {
    "float32": ("f32", 4),
    "float64": ("f64", 8),
    "int32": ("i32", 4),
    "uint32": ("u32", 4),
    "bool": ("u32", 4),            # logical stored as one u32 per element
    "complex64": ("vec2<f32>", 8),  # interleaved (re, im)
    "complex128": ("vec2<f64>", 16),
    # 8/16-bit integers widened to 32 bits (WGSL has no narrower storage);
    # int64/uint64 stay on the host: WGSL has no 64-bit integers
    "int8": ("i32", 4), "int16": ("i32", 4), "uint8": ("u32", 4), "uint16": ("u32", 4),
}
#: dtypes stored wider than on the host -> the device element type
WIDENED = {"bool": np.uint32, "int8": np.int32, "int16": np.int32,
           "uint8": np.uint32, "uint16": np.uint32}

_MIN_CLASS = 256
#: default most bytes of freed buffers kept pooled (``AccelerateInitOptions.wgpu_pool_bytes``)
DEFAULT_POOL_BYTES = 4 << 30


def size_class(nbytes: int) -> int:
    """Rounded allocation size (>= 256 B; powers of two split in quarters)."""
    n = max(int(nbytes), _MIN_CLASS)
    top = 1 << (n - 1).bit_length()
    if top <= 4096:
        return top
    step = top // 8
    return -(-n // step) * step


@dataclass
class DeviceBuffer:
    """One physical buffer; ``serial`` keys bind-group caches."""

    buffer: object
    capacity: int
    serial: int


@dataclass
class TensorEntry:
    """A live tensor: its buffer and the bytes it uses."""

    buf: DeviceBuffer
    nbytes: int
    dtype: str
    shape: tuple[int, ...]


class BufferTable:
    """Owns every device buffer of one provider."""

    def __init__(self, device: object, max_buffer_bytes: int,
                 pool_limit_bytes: int = DEFAULT_POOL_BYTES):
        import wgpu

        self._device = device
        self._usage = (wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC
                       | wgpu.BufferUsage.COPY_DST)
        self._max = max_buffer_bytes
        self.pool_limit_bytes = pool_limit_bytes
        self._entries: dict[int, TensorEntry] = {}
        # FIFO per size class: a loop that frees and reallocates in the same order
        # gets the same buffers back, so its cached bind groups hit
        self._pool: dict[int, deque[DeviceBuffer]] = {}
        self._pool_bytes = 0
        self._dirty: dict[int, deque[DeviceBuffer]] = {}
        self._doomed: list[DeviceBuffer] = []
        self._ids = itertools.count(1)
        self._serials = itertools.count(1)
        self.pool_hits = 0
        self.pool_misses = 0
        #: called with a buffer serial when a physical buffer is destroyed
        self.on_destroy: list = []
        #: whether recorded, unsubmitted commands exist (set by the owner)
        self.batch_open: Callable[[], bool] = lambda: True

    # ------------------------------------------------------------ allocation
    def allocate(self, dtype: str, shape: tuple[int, ...], for_upload: bool = False) -> int:
        """A new tensor id with an (uninitialised) buffer for ``shape``.

        ``for_upload``: the buffer will be written by ``queue.write_buffer``,
        so it must not be one that pending commands still use."""
        if dtype not in DEVICE_TYPES:
            raise Unsupported(f"wgpu: dtype {dtype} is not stored on the device")
        numel = 1
        for d in shape:
            numel *= int(d)
        nbytes = numel * DEVICE_TYPES[dtype][1]
        cap = size_class(nbytes)
        if cap > self._max >= nbytes:
            # near the buffer limit the size class would overshoot it
            cap = max(nbytes, self._max // 4 * 4)
        buf = self._take(cap, for_upload)
        tid = next(self._ids)
        self._entries[tid] = TensorEntry(buf, nbytes, dtype, tuple(shape))
        return tid

    def _take(self, cap: int, for_upload: bool) -> DeviceBuffer:
        if cap > self._max:
            raise Unsupported(f"wgpu: {cap} bytes exceeds the adapter's buffer limit {self._max}")
        dirty = None if for_upload else self._dirty.get(cap)
        if dirty:
            self.pool_hits += 1
            self._pool_bytes -= cap
            return dirty.popleft()
        bucket = self._pool.get(cap)
        if bucket:
            self.pool_hits += 1
            self._pool_bytes -= cap
            return bucket.popleft()
        self.pool_misses += 1
        raw = self._device.create_buffer(size=cap, usage=self._usage)
        return DeviceBuffer(raw, cap, next(self._serials))

    def entry(self, tid: int) -> TensorEntry:
        try:
            return self._entries[tid]
        except KeyError:
            raise Unsupported(f"wgpu: buffer {tid} is not live (freed or reset)") from None

    def free(self, tid: int) -> None:
        ent = self._entries.pop(tid, None)
        if ent is None:
            return
        batch_open = self.batch_open()
        if self._pool_bytes + ent.buf.capacity > self.pool_limit_bytes:
            if batch_open:
                # not destroyed yet: recorded, unsubmitted commands may use it, and
                # submitting a destroyed buffer is a fatal error in wgpu-native
                self._doomed.append(ent.buf)
            else:
                self._destroy(ent.buf)
            return
        target = self._dirty if batch_open else self._pool
        target.setdefault(ent.buf.capacity, deque()).append(ent.buf)
        self._pool_bytes += ent.buf.capacity

    def release_quarantine(self) -> None:
        """After a submit: dirty buffers become clean (usable by uploads) and
        buffers over the pool limit are destroyed."""
        self._destroy_doomed()
        for cap, bucket in self._dirty.items():
            if bucket:
                self._pool.setdefault(cap, deque()).extend(bucket)
                bucket.clear()

    def _destroy_doomed(self) -> None:
        for buf in self._doomed:
            self._destroy(buf)
        self._doomed.clear()

    def _destroy(self, buf: DeviceBuffer) -> None:
        for hook in self.on_destroy:
            hook(buf.serial)
        buf.buffer.destroy()

    def trim_pool(self) -> None:
        """Destroy every pooled (unused) buffer; dirty ones after the next
        submit (at once when no batch is open)."""
        for bucket in self._pool.values():
            for buf in bucket:
                self._destroy(buf)
        for bucket in self._dirty.values():
            self._doomed.extend(bucket)
        self._pool.clear()
        self._dirty.clear()
        self._pool_bytes = 0
        if not self.batch_open():
            self._destroy_doomed()

    def reset(self) -> None:
        """Free every tensor (old handles become invalid)."""
        for tid in list(self._entries):
            self.free(tid)

    @property
    def live(self) -> int:
        return len(self._entries)

    def live_bytes(self) -> int:
        return sum(e.buf.capacity for e in self._entries.values())


def host_bytes(data: np.ndarray, dtype: str) -> bytes:
    """Host array -> bytes in the device layout (bool, 8/16-bit ints as 32 bits)."""
    if dtype in WIDENED:
        return np.ascontiguousarray(data, dtype=WIDENED[dtype]).tobytes()
    return np.ascontiguousarray(data).tobytes()


def host_view(data: np.ndarray, dtype: str) -> memoryview:
    """Like ``host_bytes`` without the extra copy when ``data`` is already
    contiguous in the device layout (a piece of a large upload)."""
    if dtype in WIDENED:
        return memoryview(np.ascontiguousarray(data, dtype=WIDENED[dtype]))
    return memoryview(np.ascontiguousarray(data)).cast("B")


def from_device_bytes(raw: memoryview | bytes, dtype: str, numel: int) -> np.ndarray:
    """Device bytes -> flat host ndarray of ``dtype``."""
    if dtype in WIDENED:
        return np.frombuffer(raw, dtype=WIDENED[dtype], count=numel).astype(dtype)
    return np.frombuffer(raw, dtype=np.dtype(dtype), count=numel).copy()
