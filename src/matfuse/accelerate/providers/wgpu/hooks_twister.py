"""The ``random_twister`` hook: the host's MT19937 stream drawn on the device
(kernels in ``shaders/twister.py``).

Values are drawn in chunks so that the scratch words and each output range
fit one storage binding: for every chunk the generating kernel (one
workgroup; several dispatches where the adapter limits loop trips) writes
the chunk's words and the conversion kernel turns them into values.
"""

from __future__ import annotations

from matfuse.accelerate.providers.wgpu.core import WgpuCore, numel
from matfuse.accelerate.providers.wgpu.shaders import twister as tw
from matfuse.accelerate_api import GpuTensorHandle, Unsupported
from matfuse.accelerate_api.support import twister

# Largest chunk of values per conversion dispatch (and scratch words buffer).
_CHUNK_VALUES = 1 << 22
# Loop trips of one generating invocation per 624-word block (the outer
# loop and the tempered write loop), and outside the blocks (state copies).
_TRIPS_PER_BLOCK = 5
_TRIPS_FIXED = 16


class TwisterHooks(WgpuCore):
    def random_twister(self, kind: str, shape: tuple[int, ...], dtype: str,
                       state: GpuTensorHandle, pos: int,
                       limits: tuple[float, float] = (1.0, 1.0)) -> GpuTensorHandle:
        self.check(state)
        dtype = self.norm_dtype(dtype)
        if kind not in tw.OUTPUT_DTYPES or dtype not in tw.OUTPUT_DTYPES[kind]:
            raise Unsupported(f"wgpu: twister {kind} of {dtype}")
        if state.dtype != "uint32" or numel(state.shape) != tw.STATE_WORDS:
            raise Unsupported("wgpu: twister state must be 624 uint32 words")
        self.need_f64()  # the conversion computes in double, as the host does
        n = numel(shape)
        per_value = twister.WORDS_PER_VALUE[kind]
        chunk = self._twister_chunk(per_value)
        with self.op("random_twister"):
            out = self.alloc(shape, dtype)
            if n == 0:
                return out
            if n > chunk and self.ctx.storage_offset_alignment > 256:
                raise Unsupported("wgpu: twister chunks need 256-byte storage offsets")
            words = self.alloc((min(n, chunk) * per_value, 1), "uint32")
            try:
                position = int(pos)
                for start in range(0, n, chunk):
                    count = min(chunk, n - start)
                    position = self._twister_words(state, words, count * per_value, position)
                    src, uniform = tw.convert_kernel(kind, dtype, count, limits)
                    target = out if count == n else self.view(out, start, count)
                    try:
                        self.run(src, 1, 1, [self.bind(words), self.bind(target)], uniform,
                                 self.groups(count))
                    finally:
                        if target is not out:
                            self.drop_view(target)
            finally:
                self.release(words)
            return out

    def _twister_chunk(self, per_value: int) -> int:
        """Values per chunk: the words (4 bytes each) and the values (8 at
        most) of one chunk each fit a binding; a multiple of 64 values keeps
        output ranges on 256-byte offsets."""
        fit = self.binding_limit // (4 * per_value)
        return max(64, min(_CHUNK_VALUES, fit) // 64 * 64)

    def _twister_dispatch_blocks(self) -> int:
        """624-word blocks one generating dispatch produces: what the
        adapter's loop-trip limit allows (lavapipe), at most 65536."""
        blocks = (self.ctx.max_loop_iterations - _TRIPS_FIXED) // _TRIPS_PER_BLOCK - 1
        return max(1, min(blocks, 1 << 16))

    def _twister_words(self, state: GpuTensorHandle, words: GpuTensorHandle,
                       count: int, pos: int) -> int:
        """Record the dispatches writing the next ``count`` tempered words into
        ``words`` (from its start); returns the position after them."""
        per_dispatch = self._twister_dispatch_blocks() * tw.STATE_WORDS
        done = 0
        while done < count:
            take = min(per_dispatch, count - done)
            self.run(tw.GENERATE, 0, 2, [self.bind(state), self.bind(words)],
                     tw.generate_params(take, pos, done), (1, 1, 1),
                     workgroup=(tw.GENERATE_THREADS,))
            pos = twister.position_after(pos, take)
            done += take
        return pos
