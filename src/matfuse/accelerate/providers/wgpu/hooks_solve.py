"""The wgpu provider's ``lu_solve`` hook (square ``a \\ b``)."""

from __future__ import annotations

from matfuse.accelerate_api import GpuTensorHandle, Unsupported
from matfuse.accelerate.providers.wgpu.core import WgpuCore, numel
from matfuse.accelerate.providers.wgpu.shaders import lu_solve as lu

_FLOAT_TYPES = {"float32": "f32", "float64": "f64"}


class SolveHooks(WgpuCore):
    def lu_solve(self, a: GpuTensorHandle,
                 b: GpuTensorHandle) -> tuple[GpuTensorHandle, GpuTensorHandle]:
        """LU with partial pivoting and both triangular solves in one
        workgroup (see ``shaders/lu_solve.py``).

        Raises:
            Unsupported: non-float or mixed dtypes, a non-square ``a``, no
                f64 (the singular flag is double), or ``n > MAX_N``.
        """
        self.check(a)
        self.check(b)
        if a.dtype != b.dtype or a.dtype not in _FLOAT_TYPES:
            raise Unsupported("wgpu: lu_solve needs two real float tensors of one dtype")
        self.need_f64()
        if len(a.shape) != 2 or a.shape[0] != a.shape[1] or b.shape[0] != a.shape[0]:
            raise Unsupported("wgpu: lu_solve needs a square matrix and matching rows")
        n = a.shape[0]
        if n > lu.MAX_N or self.is_large(a) or self.is_large(b):
            raise Unsupported(f"wgpu: a \\ b of order {n} (over {lu.MAX_N}) runs on the host")
        nrhs = numel(b.shape) // max(n, 1)
        with self.op("lu_solve"):
            work = self.alloc(a.shape, a.dtype)
            x = self.alloc(b.shape, b.dtype)
            flag = self.alloc((1, 1), "float64")
            src = lu.render(_FLOAT_TYPES[a.dtype], lu.params(n, nrhs, 0, 0, 0))
            buffers = [self.bind(a), self.bind(b), self.bind(work), self.bind(x), self.bind(flag)]
            chunks = lu.column_chunks(n, nrhs)
            stages = [(0, 0, 0)] + [(1, k0, k1) for k0, k1 in chunks] + \
                [(2, k0, k1) for k0, k1 in reversed(chunks)]
            for stage, k0, k1 in stages:
                self.run(src, 2, 3, buffers, lu.params(n, nrhs, stage, k0, k1).pack(), (1, 1, 1))
            self.release(work)
            return x, flag
