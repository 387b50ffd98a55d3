"""``sort`` of lines longer than the workgroup sort takes (wgpu): the bitonic
network of ``shaders/sort_global.py`` over device memory."""

from __future__ import annotations

from matfuse.accelerate_api import GpuTensorHandle, Unsupported
from matfuse.accelerate.providers.wgpu.core import WgpuCore, numel
from matfuse.accelerate.providers.wgpu.buffers import DEVICE_TYPES
from matfuse.accelerate.providers.wgpu.shaders import sort_global as sgl

_FLOAT_TYPES = {"float32": "f32", "float64": "f64"}
_U32_MAX = (1 << 32) - 1


class LargeSortHooks(WgpuCore):
    def sort_long_lines(self, a: GpuTensorHandle, dim: int,
                        descending: bool) -> tuple[GpuTensorHandle, GpuTensorHandle]:
        """Stable sort along ``dim`` of float data whose lines are longer than
        one workgroup holds; values and 1-based float64 indices.

        Raises:
            Unsupported: non-float data, no f64, or padded scratch buffers
                beyond one storage binding or 2^32 elements.
        """
        self.check(a)
        if a.dtype not in _FLOAT_TYPES:
            raise Unsupported(f"wgpu: sort of {a.dtype} runs on the host")
        self.need_f64()   # the indices are double
        t = _FLOAT_TYPES[a.dtype]
        shape = a.shape
        length = shape[dim] if dim < len(shape) else 1
        pre, post = numel(shape[:dim]), numel(shape[dim + 1:])
        nlines = pre * post
        padded = 1 << max(length - 1, 0).bit_length()
        total = nlines * padded
        if total > _U32_MAX or total * DEVICE_TYPES[a.dtype][1] > self.binding_limit \
                or self.is_large(a) or numel(shape) * 8 > self.binding_limit:
            raise Unsupported("wgpu: sort scratch beyond one storage binding runs on the host")
        with self.op("sort"):
            vals = self.alloc(shape, a.dtype)
            idx = self.alloc(shape, "float64")
            if numel(shape) == 0:
                return vals, idx
            keys = self.alloc((total, 1), a.dtype)
            pos = self.alloc((total, 1), "uint32")
            u = sgl.params(pre, length, nlines, padded)
            self.run(sgl.render_load(t, u), 1, 2, [self.bind(a), self.bind(keys), self.bind(pos)],
                     u.pack(), self.groups(total))
            k = 2
            while k <= padded:
                j = k >> 1
                while j > 0:
                    us = sgl.params(pre, length, nlines, padded, k, j)
                    self.run(sgl.render_stage(t, descending, us), 0, 2,
                             [self.bind(keys), self.bind(pos)], us.pack(), self.groups(total))
                    j >>= 1
                k <<= 1
            self.run(sgl.render_store(t, u), 2, 2,
                     [self.bind(keys), self.bind(pos), self.bind(vals), self.bind(idx)],
                     u.pack(), self.groups(nlines * length))
            self.release(keys)
            self.release(pos)
            return vals, idx
