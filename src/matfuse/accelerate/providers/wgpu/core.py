"""The provider's machinery shared by every hook: device, buffers,
pipelines, batching, the per-call cleanup scope and error mapping."""

from __future__ import annotations

import itertools
import time
from contextlib import contextmanager
from typing import Callable, Iterator, Sequence

import numpy as np

from matfuse.accelerate_api import GpuTensorHandle, Unsupported
from matfuse.accelerate.providers.wgpu.buffers import DEFAULT_POOL_BYTES, DEVICE_TYPES, BufferTable, DeviceBuffer
from matfuse.accelerate.providers.wgpu.device import DeviceContext
from matfuse.accelerate.providers.wgpu.encoder import CommandBatcher
from matfuse.accelerate.providers.wgpu.pipelines import Layout, PipelineCache
from matfuse.accelerate.providers.wgpu.shaders.common import groups_for
from matfuse.accelerate.providers.wgpu import ranges, staging
from matfuse.accelerate.providers.wgpu.telemetry import WgpuTelemetry
from matfuse.accelerate_api.support import MatlabError

#: accepted spellings of the float dtypes in generator hooks
DTYPE_ALIASES = {"double": "float64", "single": "float32", "logical": "bool"}


def numel(shape: Sequence[int]) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n


def matlab_shape(shape: Sequence[int]) -> tuple[int, ...]:
    """At least 2 dims, no trailing singletons beyond the second."""
    s = [int(d) for d in shape]
    while len(s) > 2 and s[-1] == 1:
        s.pop()
    while len(s) < 2:
        s.append(1)
    return tuple(s)


class WgpuCore:
    """State and helpers; hooks live in the mixins of ``provider.py``."""

    name = "wgpu"

    def __init__(self, ctx: DeviceContext, device_id: int = 0,
                 max_binding_bytes: int | None = None, pool_bytes: int = DEFAULT_POOL_BYTES,
                 cache_base: str | None = None, disk_cache: bool = True):
        self.ctx = ctx
        self.device_id = device_id
        #: bytes one storage binding may cover: the adapter's limit, lowered by
        #: ``AccelerateInitOptions.wgpu_max_binding_bytes`` (tests split small arrays)
        self.binding_limit = ranges.effective_binding_limit(
            ctx.max_binding_bytes, ctx.storage_offset_alignment, max_binding_bytes)
        # view handle id (negative) -> (tensor id, byte offset, bytes): a bound range
        self._views: dict[int, tuple[int, int, int]] = {}
        self._view_ids = itertools.count(-1, -1)
        self.tel = WgpuTelemetry()
        self.buffers = BufferTable(ctx.device, int(ctx.limits.get("max-buffer-size", 1 << 28)),
                                   pool_bytes)
        self.pipelines = PipelineCache(ctx.device, ctx.summary, disk_cache, cache_base)
        self.batcher = CommandBatcher(ctx.device, self.tel, self.buffers.release_quarantine)
        self.buffers.on_destroy.append(self.batcher.forget_buffer)
        self.buffers.batch_open = lambda: self.batcher.has_work
        self.staging = staging.StagingPool(ctx.device, int(ctx.limits.get("max-buffer-size",
                                                                          1 << 28)))
        self._scope: list[int] | None = None
        self._sync_buf: DeviceBuffer | None = None
        # source text -> compiled kernel: skips re-hashing long WGSL per call
        self._kernels: dict[tuple[str, int, int, tuple[int, ...], str | None], object] = {}
        #: rendered WGSL by renderer-specific key (see hooks)
        self.sources: dict[tuple, str] = {}

    # ------------------------------------------------------------ handles
    def norm_dtype(self, dtype: str) -> str:
        dt = DTYPE_ALIASES.get(dtype, dtype)
        if dt not in DEVICE_TYPES:
            raise Unsupported(f"wgpu: dtype {dtype} is not supported on the device")
        if dt in ("float64", "complex128") and not self.ctx.has_f64:
            raise Unsupported("wgpu: adapter has no usable f64; double stays on the host")
        return dt

    def need_f64(self) -> None:
        if not self.ctx.has_f64:
            raise Unsupported("wgpu: this kernel needs f64 arithmetic, which the adapter lacks")

    def alloc(self, shape: Sequence[int], dtype: str, for_upload: bool = False) -> GpuTensorHandle:
        """A new tensor; freed automatically if the current hook fails.

        Tensors up to the adapter's max buffer size are allocated; those over
        ``binding_limit`` can only be bound in ranges (``is_large``)."""
        shape = tuple(int(d) for d in shape)
        dt = self.norm_dtype(dtype)
        tid = self.buffers.allocate(dt, shape, for_upload)
        if self._scope is not None:
            self._scope.append(tid)
        return GpuTensorHandle(shape, self.device_id, tid, dt)

    def release(self, h: GpuTensorHandle) -> None:
        """Free a temporary made inside a hook."""
        self.buffers.free(h.buffer_id)

    def check(self, h: GpuTensorHandle) -> None:
        if h.device_id != self.device_id:
            raise Unsupported("wgpu: handle belongs to another device")
        if h.dtype not in DEVICE_TYPES:
            raise Unsupported(f"wgpu: dtype {h.dtype}")
        if h.buffer_id not in self._views:
            self.buffers.entry(h.buffer_id)

    def bind(self, h: GpuTensorHandle) -> tuple[DeviceBuffer, int] | tuple[DeviceBuffer, int, int]:
        """The storage binding of ``h`` (a view binds its range).

        Raises:
            Unsupported: ``h`` is larger than one binding may be; hooks without
                a split path then fall back to the host (counted)."""
        view = self._views.get(h.buffer_id)
        if view is not None:
            tid, offset, nbytes = view
            return self.buffers.entry(tid).buf, nbytes, offset
        ent = self.buffers.entry(h.buffer_id)
        if ent.nbytes > self.binding_limit:
            raise Unsupported(f"wgpu: {ent.nbytes} bytes exceed one storage binding "
                              f"({self.binding_limit}); this op has no split path")
        return ent.buf, ent.nbytes

    def bind_raw(self, h: GpuTensorHandle, nbytes: int) -> tuple[DeviceBuffer, int]:
        return self.buffers.entry(h.buffer_id).buf, nbytes

    def buffer_of(self, h: GpuTensorHandle) -> tuple[DeviceBuffer, int]:
        """(buffer, bytes) for copies, which have no binding-size limit."""
        ent = self.buffers.entry(h.buffer_id)
        return ent.buf, ent.nbytes

    def copy_tensor(self, src: GpuTensorHandle, dst: GpuTensorHandle) -> None:
        """Record copying all of ``src`` into ``dst`` (any size: no binding)."""
        buf, nbytes = self.buffer_of(src)
        self.batcher.copy(buf, self.buffer_of(dst)[0], nbytes)

    @property
    def max_kernel_buffers(self) -> int:
        """Storage buffers (inputs + outputs) one kernel may bind; ``run``
        refuses more (Unsupported), so a fusion planner may cap kernels here."""
        return self.ctx.max_storage_buffers

    # ------------------------------------------------------------ split dispatch
    def is_large(self, h: GpuTensorHandle) -> bool:
        """Whether ``h`` is over one storage binding (only split paths take it)."""
        if h.buffer_id in self._views:
            return False
        return numel(h.shape) * DEVICE_TYPES[h.dtype][1] > self.binding_limit

    def element_ranges(self, n: int, dtypes: Sequence[str],
                       multiple: int = 1) -> list[tuple[int, int]]:
        """(start, count) element ranges for one dispatch each (``ranges.plan``).

        Raises:
            Unsupported: no range of a multiple of ``multiple`` fits a binding."""
        try:
            return ranges.plan(n, [DEVICE_TYPES[d][1] for d in dtypes], self.binding_limit,
                               self.ctx.storage_offset_alignment, multiple)
        except ValueError as exc:
            raise Unsupported(f"wgpu: cannot split: {exc}") from None

    def view(self, h: GpuTensorHandle, start: int, count: int) -> GpuTensorHandle:
        """A handle binding elements ``start .. start+count-1`` of ``h`` as a
        ``count x 1`` column; drop it with ``drop_view`` (it owns nothing)."""
        item = DEVICE_TYPES[h.dtype][1]
        tid = h.buffer_id
        offset = start * item
        parent = self._views.get(tid)
        if parent is not None:
            tid, offset = parent[0], parent[1] + offset
        self.buffers.entry(tid)
        vid = next(self._view_ids)
        self._views[vid] = (tid, offset, count * item)
        return GpuTensorHandle((count, 1), self.device_id, vid, h.dtype)

    def drop_view(self, v: GpuTensorHandle) -> None:
        self._views.pop(v.buffer_id, None)

    # ------------------------------------------------------------ dispatch
    def run(self, source: str, n_in: int, n_out: int, buffers: list[tuple],
            uniform: bytes, groups: tuple[int, int, int], entry_point: str = "main",
            workgroup: tuple[int, ...] = (256,), key: str | None = None) -> None:
        if n_in + n_out > self.ctx.max_storage_buffers:
            # the pipeline layout would fail validation: say why, fall back
            raise Unsupported(f"wgpu: kernel needs {n_in + n_out} storage buffers, the adapter "
                              f"allows {self.ctx.max_storage_buffers} per shader stage")
        memo_key = (source, n_in, n_out, workgroup, key)
        kernel = self._kernels.get(memo_key)
        if kernel is None:
            kernel = self.pipelines.get(source, entry_point, Layout(n_in, n_out), workgroup, key)
            if len(self._kernels) < 4096:
                self._kernels[memo_key] = kernel
        else:
            self.pipelines.hits += 1
        self.batcher.dispatch(kernel, buffers, uniform, groups)

    def groups(self, n_threads: int) -> tuple[int, int, int]:
        return groups_for(n_threads, self.ctx.max_groups_per_dim)

    def check_loop_trips(self, trips: int, what: str) -> None:
        """Refuse (Unsupported: the host runs it, counted as a fallback) a
        kernel whose invocations would loop ``trips`` times, more than the
        adapter runs (``DeviceContext.max_loop_iterations``: llvmpipe ends
        longer loops silently)."""
        limit = self.ctx.max_loop_iterations
        if trips > limit:
            raise Unsupported(f"wgpu: {what} needs {trips} loop iterations per invocation; "
                              f"{self.ctx.name} runs at most {limit}")

    # ------------------------------------------------------------ scope
    @contextmanager
    def op(self, name: str) -> Iterator[None]:
        """Per-hook scope: times the call, frees what it allocated on failure
        and maps wgpu failures to MatlabError / Unsupported."""
        import wgpu

        outer = self._scope
        self._scope = []
        t0 = time.perf_counter()
        try:
            yield
        except BaseException as exc:
            for tid in self._scope:
                self.buffers.free(tid)
            if isinstance(exc, wgpu.GPUError) and not isinstance(exc, (MatlabError, Unsupported)):
                self.batcher.abandon()
                raise self._map_error(name, exc) from exc
            raise
        finally:
            done = self._scope
            self._scope = outer
            if outer is not None and done:
                outer.extend(done)
            self.tel.record_op(name, time.perf_counter() - t0)

    @staticmethod
    def _map_error(name: str, exc: Exception) -> Exception:
        import wgpu

        if isinstance(exc, wgpu.GPUOutOfMemoryError):
            err = MatlabError("parallel:gpu:array:OOM",
                              "Out of memory on device. To view more detail about available "
                              "memory on the GPU, use 'gpuDevice()'.")
        elif isinstance(exc, wgpu.GPUValidationError):
            return Unsupported(f"wgpu: {name} failed validation: {exc}")
        else:
            err = MatlabError("parallel:gpu:device:DeviceLost",
                              f"The GPU device failed while running {name}: {exc}")
        err.function_name = name
        return err

    def flush(self) -> None:
        self.batcher.flush()

    def wait_idle(self) -> None:
        """Submit pending work and block until the GPU finished it.

        A 4-byte copy into the shared staging buffer rides on the pending
        work's submit and is mapped (wgpu 0.32's on_submitted_work_done_sync
        is broken). Nothing recorded and nothing in flight: no round trip."""
        if not self.batcher.has_work and not self.batcher.in_flight:
            return
        import wgpu

        if self._sync_buf is None:
            raw = self.ctx.device.create_buffer(
                size=16, usage=wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST)
            self._sync_buf = DeviceBuffer(raw, 16, 0)
        self._round_trip(self._sync_buf, 0, 4, lambda view: np.zeros(0))
        self.tel.syncs += 1

    def read(self, h: GpuTensorHandle, count: int | None = None, start: int = 0) -> np.ndarray:
        """Flat host copy of elements ``start .. start+count-1`` of ``h``
        (all from ``start`` by default); submits pending work with the copy."""
        from matfuse.accelerate.providers.wgpu.buffers import WIDENED, from_device_bytes

        ent = self.buffers.entry(h.buffer_id)
        item = DEVICE_TYPES[h.dtype][1]
        n = numel(h.shape) - start if count is None else count
        if n <= 0:
            return np.zeros(0, dtype=np.dtype(h.dtype))
        nbytes = n * item
        piece = ranges.staging_piece_elements(item, self.binding_limit)
        if n <= piece:
            data = self._round_trip(ent.buf, start * item, nbytes,
                                    lambda view: from_device_bytes(view, h.dtype, n))
        else:
            # staging in pieces: no host-visible buffer as large as the tensor;
            # each mapped piece is copied (and narrowed) straight into place
            data = np.empty(n, dtype=np.dtype(h.dtype))
            stored = np.dtype(WIDENED.get(h.dtype, h.dtype))

            def into(view: memoryview, s0: int, c: int) -> np.ndarray:
                data[s0:s0 + c] = np.frombuffer(view, dtype=stored, count=c)
                return data[:0]

            for s0 in range(0, n, piece):
                c = min(piece, n - s0)
                self._round_trip(ent.buf, (start + s0) * item, c * item,
                                 lambda view, s0=s0, c=c: into(view, s0, c))
        self.tel.downloads += 1
        self.tel.download_bytes += nbytes
        return data

    def _round_trip(self, src: DeviceBuffer, offset: int, nbytes: int,
                    convert: Callable[[memoryview], np.ndarray]) -> np.ndarray:
        """Copy ``nbytes`` of ``src`` into staging after the pending work,
        submit once, map, convert (copying) and unmap."""
        nb = (nbytes + 3) // 4 * 4
        buf = self.staging.take(nb)
        healthy = False
        try:
            self.batcher.copy_out(src, offset, buf, nb)
            t0 = time.perf_counter()
            self.flush()
            t1 = time.perf_counter()
            # wgpu-py's private poll(block) (wgpu 0.32); absent: use its poll thread
            poll = getattr(self.ctx.device, "_poll", None) if staging.POLL_ON_CALLER else None
            spin = 0.0 if self.ctx.adapter_type == "CPU" else staging.SPIN_SECONDS
            try:
                out = staging.map_and_read(buf, nb, poll, convert, spin)
            except RuntimeError as exc:   # the map failed: the device is gone
                raise self._map_error("download", exc) from exc
            healthy = True
        finally:
            self.staging.give_back(buf, healthy)
        # "submit": recording -> queue; "device_wait": GPU work + map latency
        self.tel.phase_seconds["submit"] += t1 - t0
        self.tel.phase_seconds["device_wait"] += time.perf_counter() - t1
        self.batcher.mark_synced()
        self.tel.readbacks += 1
        return out
