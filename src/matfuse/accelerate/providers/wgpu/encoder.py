"""Command batching: many dispatches, one submit.

Dispatches are recorded into one command encoder (inside one open compute
pass) and submitted only at sync points: a download, ``synchronize``, a full
uniform arena, or too many pending dispatches. Each dispatch's uniform
parameters go into a 256-byte slot of a per-batch arena written once right
before the submit, so the bind group of a kernel/buffers combination is
reused via a dynamic offset (creating a bind group per dispatch is costly).
Bind groups are keyed by the physical buffers' serials: pooled buffers keep
their serial when reused, so a freed-and-reallocated buffer still hits; a
destroyed buffer's entries are dropped (``forget_buffer``). A download's copy
into its staging buffer joins the same encoder (``copy_out``), so kernels and
read-back share one submit.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Callable, Sequence

from matfuse.accelerate.providers.wgpu.buffers import DeviceBuffer
from matfuse.accelerate.providers.wgpu.pipelines import UNIFORM_SLOT, CompiledKernel
from matfuse.accelerate.providers.wgpu.telemetry import WgpuTelemetry

_ARENA_BYTES = 65536
#: uploads up to this size go through the arena (``upload_small``)
SMALL_UPLOAD_BYTES = 1024
_MAX_PENDING = 1024
_BIND_GROUP_CACHE = 4096


class CommandBatcher:
    """Records dispatches and copies; flushes at sync points."""

    def __init__(self, device: object, telemetry: WgpuTelemetry,
                 after_submit: Callable[[], None]):
        import wgpu

        self._device = device
        self._queue = device.queue
        self._tel = telemetry
        self._after_submit = after_submit
        # COPY_SRC: small uploads are staged in the arena too (upload_small)
        self._arena = device.create_buffer(
            size=_ARENA_BYTES, usage=(wgpu.BufferUsage.UNIFORM | wgpu.BufferUsage.COPY_DST
                                      | wgpu.BufferUsage.COPY_SRC))
        self._arena_data = bytearray(_ARENA_BYTES)
        self._arena_used = 0
        self._encoder = None
        self._pass = None
        self._pending = 0
        self._bind_groups: OrderedDict[tuple, object] = OrderedDict()
        # buffer serial -> bind-group keys using it (forget_buffer without a scan)
        self._keys_of: dict[int, set[tuple]] = {}
        #: True from a submit (or a queue write) until ``mark_synced`` (a
        #: completed map round trip)
        self.in_flight = False

    @property
    def pending(self) -> int:
        return self._pending

    @property
    def has_work(self) -> bool:
        """Commands are recorded and not yet submitted."""
        return self._encoder is not None

    @property
    def cached_bind_groups(self) -> int:
        return len(self._bind_groups)

    def mark_busy(self) -> None:
        """The queue holds work outside the encoder (a ``write_buffer``)."""
        self.in_flight = True

    def mark_synced(self) -> None:
        """Everything submitted so far has completed (a map just returned)."""
        self.in_flight = False

    def forget_buffer(self, serial: int) -> None:
        """Drop cached bind groups that reference a destroyed buffer."""
        for key in self._keys_of.pop(serial, ()):
            if self._bind_groups.pop(key, None) is not None:
                self._unindex(key, skip=serial)

    def _unindex(self, key: tuple, skip: int | None = None) -> None:
        for serial in key[1]:
            if serial != skip:
                keys = self._keys_of.get(serial)
                if keys is not None:
                    keys.discard(key)
                    if not keys:
                        del self._keys_of[serial]

    # ------------------------------------------------------------ recording
    def _ensure_encoder(self) -> object:
        if self._encoder is None:
            self._encoder = self._device.create_command_encoder()
        return self._encoder

    def _ensure_pass(self) -> object:
        if self._pass is None:
            self._pass = self._ensure_encoder().begin_compute_pass()
        return self._pass

    def _end_pass(self) -> None:
        if self._pass is not None:
            self._pass.end()
            self._pass = None

    def _bind_group(self, kernel: CompiledKernel,
                    buffers: Sequence[tuple[DeviceBuffer, int, int]], slot: int) -> object:
        key = (kernel.key, tuple(b.serial for b, _, _ in buffers),
               tuple((n, off) for _, n, off in buffers), slot)
        bg = self._bind_groups.get(key)
        if bg is not None:
            self._bind_groups.move_to_end(key)
            self._tel.bind_group_hits += 1
            return bg
        self._tel.bind_group_misses += 1
        entries = [{"binding": i, "resource": {"buffer": b.buffer, "offset": off, "size": n}}
                   for i, (b, n, off) in enumerate(buffers)]
        entries.append({"binding": len(buffers),
                        "resource": {"buffer": self._arena, "offset": 0, "size": slot}})
        bg = self._device.create_bind_group(layout=kernel.bind_group_layout, entries=entries)
        self._bind_groups[key] = bg
        for serial in key[1]:
            self._keys_of.setdefault(serial, set()).add(key)
        if len(self._bind_groups) > _BIND_GROUP_CACHE:
            old, _ = self._bind_groups.popitem(last=False)
            self._unindex(old)
        return bg

    def dispatch(self, kernel: CompiledKernel, buffers: Sequence[tuple],
                 uniform: bytes, groups: tuple[int, int, int]) -> None:
        """Record one dispatch.

        Args:
            buffers: (buffer, bound bytes) or (buffer, bound bytes, byte offset)
                per storage binding, in binding order; bound bytes are rounded
                up to 4 and at least 4; offsets must be multiples of the
                adapter's min-storage-buffer-offset-alignment (split dispatch).
            uniform: parameter bytes (one 256-byte arena slot, or several
                consecutive slots for larger uniforms; at most 64 KiB).
            groups: workgroup counts (x, y, z).
        """
        slot = max(UNIFORM_SLOT, -(-len(uniform) // UNIFORM_SLOT) * UNIFORM_SLOT)
        if slot > _ARENA_BYTES:
            raise ValueError("uniform parameters exceed 64 KiB")
        if self._arena_used + slot > _ARENA_BYTES or self._pending >= _MAX_PENDING:
            self.flush()
        offset = self._arena_used
        self._arena_data[offset:offset + len(uniform)] = uniform
        self._arena_used += slot
        bound = [(b[0], max(4, (b[1] + 3) // 4 * 4), b[2] if len(b) > 2 else 0) for b in buffers]
        bg = self._bind_group(kernel, bound, slot)
        cpass = self._ensure_pass()
        cpass.set_pipeline(kernel.pipeline)
        cpass.set_bind_group(0, bg, [offset])
        cpass.dispatch_workgroups(*groups)
        self._pending += 1
        self._tel.dispatches += 1

    def copy(self, src: DeviceBuffer, dst: DeviceBuffer, nbytes: int,
             src_offset: int = 0, dst_offset: int = 0) -> None:
        """Record a device-to-device copy (sizes and offsets multiples of 4)."""
        self._end_pass()
        nb = (nbytes + 3) // 4 * 4
        if nb:
            self._ensure_encoder().copy_buffer_to_buffer(src.buffer, src_offset, dst.buffer,
                                                         dst_offset, nb)
            self._pending += 1

    def upload_small(self, dst: DeviceBuffer, data: bytes) -> None:
        """Record writing ``data`` (at most ``SMALL_UPLOAD_BYTES``) to the
        start of ``dst``: the bytes ride in the arena's single write_buffer
        and a copy at this point of the command stream moves them, so a
        scalar upload costs no write_buffer of its own and ``dst`` may be a
        buffer that recorded commands still read."""
        nb = (len(data) + 3) // 4 * 4
        slot = -(-nb // UNIFORM_SLOT) * UNIFORM_SLOT
        if self._arena_used + slot > _ARENA_BYTES:
            self.flush()
        offset = self._arena_used
        self._arena_data[offset:offset + len(data)] = data
        self._arena_used += slot
        self._end_pass()
        self._ensure_encoder().copy_buffer_to_buffer(self._arena, offset, dst.buffer, 0, nb)
        self._pending += 1

    def copy_out(self, src: DeviceBuffer, src_offset: int, staging: object, nbytes: int) -> None:
        """Record copying ``nbytes`` (a multiple of 4) of ``src`` into the
        start of a staging buffer, after everything recorded so far."""
        self._end_pass()
        self._ensure_encoder().copy_buffer_to_buffer(src.buffer, src_offset, staging, 0, nbytes)
        self._pending += 1

    def clear(self, buf: DeviceBuffer, nbytes: int) -> None:
        """Record zero-filling the first ``nbytes`` (rounded up to 4) of ``buf``."""
        self._end_pass()
        nb = (nbytes + 3) // 4 * 4
        if nb:
            self._ensure_encoder().clear_buffer(buf.buffer, 0, nb)
            self._pending += 1

    def flush(self) -> None:
        """Submit everything recorded so far."""
        self._end_pass()
        if self._encoder is None:
            return
        if self._arena_used:
            # write_buffer copies at once: a view of the host arena is enough
            used = memoryview(self._arena_data)[:self._arena_used]
            self._queue.write_buffer(self._arena, 0, used)
        command_buffer = self._encoder.finish()
        self._encoder = None
        self._arena_used = 0
        self._pending = 0
        self._queue.submit([command_buffer])
        self._tel.submits += 1
        self.in_flight = True
        self._after_submit()

    def abandon(self) -> None:
        """Drop recorded work after an error (its results are lost)."""
        self._pass = None
        self._encoder = None
        self._arena_used = 0
        self._pending = 0
