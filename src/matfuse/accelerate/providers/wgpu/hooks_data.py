"""Data hooks: generators, random, permute, triangular/diag, gather,
scatter, find, concat, and the fused-kernel entry points."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from matfuse.accelerate_api import FusedKernel, GpuTensorHandle, HostTensor, Unsupported
from matfuse.accelerate.providers.wgpu.buffers import DEVICE_TYPES
from matfuse.accelerate.providers.wgpu.core import matlab_shape, numel
from matfuse.accelerate.providers.wgpu.hooks_large import LargeTensorHooks, range_tail
from matfuse.accelerate.providers.wgpu.shaders import construction as cons
from matfuse.accelerate.providers.wgpu.shaders import indexing as ix
from matfuse.accelerate.providers.wgpu.shaders.common import UniformStruct, groups_2d

_INDEX_DTYPES = ("int32", "uint32", "float64", "float32")


class DataHooks(LargeTensorHooks):
    # ------------------------------------------------------------ generators
    def fill(self, shape: tuple[int, ...], value: float, dtype: str) -> GpuTensorHandle:
        if isinstance(value, complex):
            raise Unsupported("wgpu: complex fill")
        dtype = self.norm_dtype(dtype)
        if dtype.startswith("complex"):
            raise Unsupported("wgpu: complex fill")
        with self.op("fill"):
            out = self.alloc(shape, dtype)
            n = numel(shape)
            if n and self.is_large(out):
                self.fill_ranges(out, value)
            elif n:
                src, u = cons.fill_kernel(dtype, n, value)
                self.run(src, 0, 1, [self.bind(out)], u, self.groups(n))
            return out

    def eye(self, shape: tuple[int, ...], dtype: str) -> GpuTensorHandle:
        dtype = self.norm_dtype(dtype)
        with self.op("eye"):
            out = self.alloc(shape, dtype)
            n = numel(shape)
            if n:
                src, u = cons.eye_kernel(dtype, n, shape[0], shape[1] if len(shape) > 1 else 1)
                self.run(src, 0, 1, [self.bind(out)], u, self.groups(n))
            return out

    def _ramp(self, name: str, a: float, b: float, n: int, dtype: str, linspace: bool) -> GpuTensorHandle:
        dtype = self.norm_dtype(dtype)
        if dtype not in ("float32", "float64"):
            raise Unsupported(f"wgpu: {name} of {dtype}")
        with self.op(name):
            out = self.alloc((1, max(int(n), 0)), dtype)
            if n > 0:
                src, u = cons.ramp_kernel(dtype, int(n), a, b, linspace, self.ctx.has_f64)
                self.run(src, 0, 1, [self.bind(out)], u, self.groups(int(n)))
            return out

    def linspace(self, start: float, stop: float, n: int, dtype: str) -> GpuTensorHandle:
        return self._ramp("linspace", start, stop, n, dtype, True)

    def colon(self, start: float, step: float, n: int, dtype: str) -> GpuTensorHandle:
        if self.norm_dtype(dtype) == "int32" and _exact_int32_ramp(start, step, n):
            with self.op("colon"):
                out = self.alloc((1, max(int(n), 0)), "int32")
                if n > 0:
                    src, u = cons.int_ramp_kernel(int(n), int(start), int(step))
                    self.run(src, 0, 1, [self.bind(out)], u, self.groups(int(n)))
                return out
        return self._ramp("colon", start, step, n, dtype, False)

    def _random(self, name: str, shape: tuple[int, ...], dtype: str, key: tuple[int, int],
                counter: int, normal: bool) -> GpuTensorHandle:
        dtype = self.norm_dtype(dtype)
        if dtype not in ("float32", "float64"):
            raise Unsupported(f"wgpu: {name} of {dtype}")
        if normal or dtype == "float64":
            self.need_f64()
        with self.op(name):
            out = self.alloc(shape, dtype)
            n = numel(shape)
            if n and self.is_large(out):
                self.random_ranges(out, key, int(counter), normal)
            elif n:
                src, u = cons.random_kernel(dtype, n, key, int(counter), normal, self.ctx.has_f64)
                self.run(src, 0, 1, [self.bind(out)], u, self.groups(n))
            return out

    def random_uniform(self, shape: tuple[int, ...], dtype: str, key: tuple[int, int],
                       counter: int) -> GpuTensorHandle:
        return self._random("random_uniform", shape, dtype, key, counter, False)

    def random_normal(self, shape: tuple[int, ...], dtype: str, key: tuple[int, int],
                      counter: int) -> GpuTensorHandle:
        return self._random("random_normal", shape, dtype, key, counter, True)

    # ------------------------------------------------------------ layout
    def permute(self, a: GpuTensorHandle, order: Sequence[int]) -> GpuTensorHandle:
        self.check(a)
        order = [int(o) for o in order]
        rank = max(len(order), len(a.shape))
        shape = list(a.shape) + [1] * (rank - len(a.shape))
        order = order + [d for d in range(rank) if d not in order]
        cstr = [numel(shape[:d]) for d in range(rank)]
        out_dims = [shape[o] for o in order]
        in_strides = [cstr[o] for o in order]
        # drop unit dims: they never move the index
        keep = [d for d in range(rank) if out_dims[d] != 1]
        if len(keep) > ix.MAX_RANK:
            raise Unsupported("wgpu: permute rank too high")
        n = numel(shape)
        with self.op("permute"):
            out = self.alloc(matlab_shape(out_dims), a.dtype)
            if n:
                u = ix.permute_params(n, [out_dims[d] for d in keep], [in_strides[d] for d in keep])
                self.run(ix.render_permute(a.dtype, u), 1, 1, [self.bind(a), self.bind(out)],
                         u.pack(), self.groups(n))
            return out

    def triangular(self, a: GpuTensorHandle, k: int, upper: bool) -> GpuTensorHandle:
        self.check(a)
        rows = a.shape[0]
        cols = a.shape[1] if len(a.shape) > 1 else 1
        n = numel(a.shape)
        u = (UniformStruct().add("n", "u32", n).add("rows", "u32", rows)
             .add("cols", "u32", cols).add("k", "i32", int(k)))
        with self.op("triangular"):
            out = self.alloc(a.shape, a.dtype)
            if n:
                self.run(ix.render_triangular(a.dtype, upper, u), 1, 1,
                         [self.bind(a), self.bind(out)], u.pack(), self.groups(n))
            return out

    def diag(self, a: GpuTensorHandle, k: int) -> GpuTensorHandle:
        """Via gather/scatter at the diagonal's positions, an int32 range made
        on the device."""
        self.check(a)
        if len(a.shape) != 2:
            raise Unsupported("wgpu: diag of N-D")
        r, c = a.shape
        with self.op("diag"):
            if r == 1 or c == 1:
                m = numel(a.shape)
                size = m + abs(int(k))
                if m == 0:
                    return self.fill((size, size), 0.0, a.dtype)
                # the diagonal's positions: one int32 range, made on the device
                first = max(-int(k), 0) + max(int(k), 0) * size
                idx = self.colon(float(first), float(size + 1), m, "int32")
                base = self.fill((size, size), 0.0, a.dtype)
                try:
                    return self.index_scatter(base, idx, a)
                finally:
                    self.release(idx)
                    self.release(base)
            i0, j0 = max(-int(k), 0), max(int(k), 0)
            m = max(0, min(r - i0, c - j0))
            if m == 0:
                return self.alloc((0, 1), a.dtype)
            idx = self.colon(float(i0 + j0 * r), float(r + 1), m, "int32")
            try:
                return self.index_gather(a, idx, (m, 1))
            finally:
                self.release(idx)

    def upload_index(self, idx: np.ndarray) -> GpuTensorHandle:
        arr = np.ascontiguousarray(idx, dtype=np.uint32)
        return self.upload(HostTensor(arr, (arr.size, 1), "uint32"))

    # ------------------------------------------------------------ indexing
    def range_positions(self, axes: Sequence[tuple[int, int, int, int]], base: int,
                        shape: tuple[int, ...]) -> GpuTensorHandle:
        if len(shape) > ix.MAX_RANK:
            raise Unsupported("wgpu: range positions of more than 8 dimensions")
        n = numel(shape)
        with self.op("range_positions"):
            out = self.alloc(tuple(shape), "int32")
            if self.is_large(out):
                self.release(out)
                raise Unsupported("wgpu: range positions over one storage binding")
            if n:
                u = ix.range_positions_params(n, base, list(shape), list(axes))
                self.run(ix.render_range_positions(u), 0, 1, [self.bind(out)], u.pack(),
                         self.groups(n))
            return out

    def index_gather(self, a: GpuTensorHandle, linear_index: GpuTensorHandle,
                     out_shape: tuple[int, ...]) -> GpuTensorHandle:
        self.check(a)
        self.check(linear_index)
        # complex elements are vec2 (re, im): the gather copies them whole
        if linear_index.dtype not in _INDEX_DTYPES:
            raise Unsupported("wgpu: gather dtype")
        n = numel(out_shape)
        u = UniformStruct().add("n", "u32", n).add("m", "u32", max(1, numel(a.shape)))
        with self.op("index_gather"):
            out = self.alloc(out_shape, a.dtype)
            if n and any(self.is_large(h) for h in (a, linear_index, out)):
                self.gather_ranges(a, linear_index, out)
            elif n:
                self.run(ix.render_gather(a.dtype, linear_index.dtype, u), 2, 1,
                         [self.bind(a), self.bind(linear_index), self.bind(out)], u.pack(),
                         self.groups(n))
            return out

    def index_scatter(self, a: GpuTensorHandle, linear_index: GpuTensorHandle,
                      values: object) -> GpuTensorHandle:
        self.check(a)
        self.check(linear_index)
        if linear_index.dtype not in _INDEX_DTYPES or a.dtype.startswith("complex"):
            raise Unsupported("wgpu: scatter dtype")
        vals = values if isinstance(values, GpuTensorHandle) else None
        if vals is not None:
            self.check(vals)
            if vals.dtype.startswith("complex") or (vals.dtype != a.dtype and a.dtype != "float64"
                                                    and a.dtype != "float32"):
                raise Unsupported("wgpu: scatter value dtype")
        elif isinstance(values, complex):
            raise Unsupported("wgpu: complex scatter")
        n = numel(linear_index.shape)
        m = numel(a.shape)
        if any(self.is_large(h) for h in (a, linear_index, vals) if h is not None):
            raise Unsupported("wgpu: scatter into/from a tensor over one storage binding")
        with self.op("index_scatter"):
            out = self.alloc(a.shape, a.dtype)
            self.copy_tensor(a, out)
            if n == 0:
                return out
            winner = self.fill((m, 1), 0.0, "uint32")
            try:
                u = UniformStruct().add("n", "u32", n).add("m", "u32", max(m, 1))
                st = DEVICE_TYPES[a.dtype][0]
                if vals is None:
                    v = bool(values) if a.dtype == "bool" else values
                    u.add("v", st, int(v) if st in ("u32", "i32") else float(v))
                self.run(ix.render_scatter_claim(linear_index.dtype, u), 1, 1,
                         [self.bind(linear_index), self.bind(winner)], u.pack(), self.groups(n))
                ins = [self.bind(linear_index), self.bind(winner)] + ([self.bind(vals)] if vals else [])
                self.run(ix.render_scatter_write(a.dtype, linear_index.dtype,
                                                 vals.dtype if vals else None, u),
                         len(ins), 1, ins + [self.bind(out)], u.pack(), self.groups(n))
            finally:
                self.release(winner)
            return out

    def reshape(self, a: GpuTensorHandle, shape: tuple[int, ...]) -> GpuTensorHandle:
        """A buffer copy with the new shape (column-major data is unchanged)."""
        self.check(a)
        if numel(shape) != numel(a.shape):
            raise Unsupported("wgpu: reshape changes the number of elements")
        with self.op("reshape"):
            out = self.alloc(shape, a.dtype)
            if numel(shape):
                self.copy_tensor(a, out)
            return out

    def find(self, a: GpuTensorHandle) -> GpuTensorHandle:
        self.check(a)
        self.need_f64()
        if a.dtype.startswith("complex"):
            raise Unsupported("wgpu: complex find")
        n = numel(a.shape)
        if n == 0:
            with self.op("find"):
                return self.alloc((0, 1), "float64")
        nblocks = max(1, -(-n // ix.FIND_BLOCK))
        u = UniformStruct().add("n", "u32", n).add("nblocks", "u32", nblocks)
        groups = groups_2d(nblocks, self.ctx.max_groups_per_dim)
        with self.op("find"):
            counts = self.alloc((nblocks, 1), "uint32")
            offsets = self.alloc((nblocks + 1, 1), "uint32")
            try:
                self.run(ix.render_find_count(a.dtype, u), 1, 1,
                         [self.bind(a), self.bind(counts)], u.pack(), groups)
                self.run(ix.render_find_scan(u), 1, 1, [self.bind(counts), self.bind(offsets)],
                         u.pack(), (1, 1, 1))
                # the result's size depends on the data: one 4-byte readback
                total = int(self.read_at(offsets, nblocks))
                out = self.alloc((total, 1), "float64")
                if total:
                    self.run(ix.render_find_write(a.dtype, u), 2, 1,
                             [self.bind(a), self.bind(offsets), self.bind(out)], u.pack(), groups)
                return out
            finally:
                self.release(counts)
                self.release(offsets)

    def read_at(self, h: GpuTensorHandle, index: int) -> float:
        return self.read(h, count=1, start=index)[0]

    def concat(self, parts: Sequence[GpuTensorHandle], dim: int) -> GpuTensorHandle:
        """Block copies: each part contributes ``post`` contiguous runs."""
        if not parts:
            raise Unsupported("wgpu: concat of nothing")
        for p in parts:
            self.check(p)
        dtype = parts[0].dtype
        if any(p.dtype != dtype for p in parts):
            raise Unsupported("wgpu: concat of mixed dtypes")
        rank = max(max(len(p.shape) for p in parts), dim + 1)
        shapes = [list(p.shape) + [1] * (rank - len(p.shape)) for p in parts]
        out_shape = list(shapes[0])
        out_shape[dim] = sum(s[dim] for s in shapes)
        post = numel(out_shape[dim + 1:])
        if post * len(parts) > 256:
            raise Unsupported("wgpu: concat needs too many block copies")
        esize = DEVICE_TYPES[dtype][1]
        with self.op("concat"):
            out = self.alloc(matlab_shape(out_shape), dtype)
            dst = self.buffer_of(out)[0]
            out_run = numel(out_shape[:dim + 1]) * esize
            offset = 0
            for p, s in zip(parts, shapes):
                run_bytes = numel(s[:dim + 1]) * esize
                src = self.buffer_of(p)[0]
                for q in range(post if run_bytes else 0):
                    self.batcher.copy(src, dst, run_bytes, q * run_bytes, q * out_run + offset)
                offset += run_bytes
            return out

    # ------------------------------------------------------------ fused kernels
    def fused_elementwise(self, kernel: FusedKernel, inputs: Sequence[GpuTensorHandle],
                          scalars: Sequence[float],
                          outputs: Sequence[tuple[tuple[int, ...], str]]) -> list[GpuTensorHandle]:
        """Run a generated elementwise kernel (``accelerate_api.FusedKernel``).

        Bindings, group 0: inputs ``var<storage, read>`` at ``0..n_in-1`` in
        order, outputs ``var<storage, read_write>`` at ``n_in..n_in+n_out-1``
        (bool stored as u32), then the kernel's ``Params`` uniform
        (``kernel.pack_params()`` followed by the split-dispatch range ``r:
        vec4<u32>``, zero for a whole-tensor run); the grid is
        ``kernel.workgroups()``. Kernels using the f64 library call
        ``mf_init(nwg.x)`` first. Outputs are not zeroed (pooled buffers),
        except the domain flag (the last output when ``kernel.has_flag``).
        ``scalars`` are already in the packed uniform.
        """
        return self._fused("fused_elementwise", kernel, inputs, scalars, outputs, per_slice=False)

    def fused_reduction(self, kernel: FusedKernel, inputs: Sequence[GpuTensorHandle],
                        scalars: Sequence[float],
                        outputs: Sequence[tuple[tuple[int, ...], str]]) -> list[GpuTensorHandle]:
        """Run a generated reduction kernel: the bindings and uniform of
        ``fused_elementwise``; it always runs whole (its partial passes are
        the fusion engine's)."""
        return self._fused("fused_reduction", kernel, inputs, scalars, outputs, per_slice=True)

    def _fused(self, name: str, kernel: FusedKernel, inputs: Sequence[GpuTensorHandle],
               scalars: Sequence[float], outputs: Sequence[tuple[tuple[int, ...], str]],
               per_slice: bool) -> list[GpuTensorHandle]:
        """One launch of a generated kernel: its own ``Params`` (header and
        scalars, then the split-dispatch range ``r``: zero for the whole
        tensor) and grid; a large elementwise operand runs over ranges."""
        for h in inputs:
            self.check(h)
        if not outputs:
            raise Unsupported(f"wgpu: {name} without outputs")
        wg_t = (int(kernel.workgroup_size),)
        out_dtypes = [self.norm_dtype(d) for _, d in outputs]
        packed = kernel.pack_params()
        with self.op(name):
            outs = [self.alloc(shape, dt) for (shape, _), dt in zip(outputs, out_dtypes)]
            if kernel.threads == 0:
                return outs
            if not per_slice and any(self.is_large(h) for h in [*inputs, *outs]):
                self.fused_ranges(kernel, inputs, outs, packed, wg_t)
                return outs
            if kernel.has_flag:
                # the domain flag is only ever set to 1 by the kernel; pooled
                # buffers are not zeroed, so clear it first
                self.batcher.clear(*self.bind(outs[-1]))
            bufs = [self.bind(h) for h in inputs] + [self.bind(o) for o in outs]
            self.run(kernel.source, len(inputs), len(outs), bufs, packed + range_tail(),
                     tuple(kernel.workgroups()), kernel.entry_point, wg_t, key=kernel.cache_key)
            return outs


def _exact_int32_ramp(start: float, step: float, n: int) -> bool:
    """Whether ``start + k*step`` (k < n) are integers that int32 holds."""
    if start != int(start) or step != int(step):
        return False
    last = start + max(int(n) - 1, 0) * step
    return -2**31 <= min(start, last) and max(start, last) < 2**31
