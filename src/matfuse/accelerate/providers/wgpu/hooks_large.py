"""Split-dispatch paths for tensors larger than one storage binding.

A "large" tensor (``WgpuCore.is_large``) lives in one buffer but no kernel
may bind it whole. The paths here run one dispatch per element range
(``ranges.plan``), binding the range of each full-size operand through a view
handle and small operands (scalars, 1x1 tensors, broadcast inputs of a fused
kernel) whole, with the range's first element passed to kernels whose index
math needs global indices. Covered: fill, rand/randn, same-shape elementwise
ops (1x1 operands allowed), fused elementwise kernels and fused
full-reduction partial passes rendered splittable (``kernel.split``, a
``SplitPlan``), full reductions (sum, mean, max, min, nnz,
counts) by per-range partials, reductions over leading dims by whole
columns, and gathers ``a(index)``; uploads and downloads move in pieces
(``core.read``, ``provider.upload``). Everything else raises ``Unsupported``
from ``WgpuCore.bind`` and runs on the host (counted).
"""

from __future__ import annotations

import struct
from contextlib import contextmanager
from typing import Any, Iterator, Sequence

from matfuse.accelerate_api import FusedKernel, GpuTensorHandle, SplitPlan, Unsupported
from matfuse.accelerate.providers.wgpu.buffers import DEVICE_TYPES
from matfuse.accelerate.providers.wgpu.core import WgpuCore, matlab_shape, numel
from matfuse.accelerate.providers.wgpu.shaders import construction as cons
from matfuse.accelerate.providers.wgpu.shaders import elementwise as ew
from matfuse.accelerate.providers.wgpu.shaders import indexing as ix
from matfuse.accelerate.providers.wgpu.shaders import reduce as rd
from matfuse.accelerate.providers.wgpu.shaders.common import UniformStruct

_WHOLE = 0xFFFFFFFF
#: reduction op -> (op of the per-range pass, op combining the partials)
_RANGE_REDUCE = {"sum": ("sum", "sum"), "mean": ("sum", "sum"), "max": ("max", "max"),
                 "min": ("min", "min"), "nnz": ("nnz", "sum"), rd.COUNT_OP: (rd.COUNT_OP, "sum")}
_REDUCE_DTYPES = ("float32", "float64", "bool")
#: elements per Philox block: (single, double) uniforms; normals as uniforms
_PHILOX_BLOCK = {"float32": 4, "float64": 2}


def range_tail(base: int = 0, end: int = _WHOLE, later: bool = False) -> bytes:
    """The ``r: vec4<u32>`` field that follows ``pack_params()`` in a fused
    kernel's uniform (range start, range end, combine into earlier partials),
    padded to 32 bytes (struct alignment of f64 kernels)."""
    return struct.pack("<4I", base, end, int(later), 0) + bytes(16)


class LargeTensorHooks(WgpuCore):
    """Mixed into the provider; called by the hooks when a tensor is large."""

    @contextmanager
    def _range_views(self, handles: Sequence[GpuTensorHandle], sliced: Sequence[bool],
                     start: int, count: int) -> Iterator[list[GpuTensorHandle]]:
        """Views of the sliced handles' range (others unchanged), dropped after."""
        made = [self.view(h, start, count) if s else h for h, s in zip(handles, sliced)]
        try:
            yield made
        finally:
            for v, s in zip(made, sliced):
                if s:
                    self.drop_view(v)

    # ------------------------------------------------------------ generators
    def fill_ranges(self, out: GpuTensorHandle, value: float) -> None:
        for s, c in self.element_ranges(numel(out.shape), [out.dtype]):
            src, u = cons.fill_kernel(out.dtype, c, value)
            with self._range_views([out], [True], s, c) as (v,):
                self.run(src, 0, 1, [self.bind(v)], u, self.groups(c))

    def random_ranges(self, out: GpuTensorHandle, key: tuple[int, int], counter: int,
                      normal: bool) -> None:
        """Each range continues the Philox stream: its counter is advanced
        by the blocks of the elements before it (ranges start on block edges)."""
        per_block = _PHILOX_BLOCK[out.dtype]
        for s, c in self.element_ranges(numel(out.shape), [out.dtype]):
            src, u = cons.random_kernel(out.dtype, c, key, int(counter) + s // per_block,
                                        normal, self.ctx.has_f64)
            with self._range_views([out], [True], s, c) as (v,):
                self.run(src, 0, 1, [self.bind(v)], u, self.groups(c))

    # ------------------------------------------------------------ elementwise
    def elementwise_ranges(self, expr: str, operands: list[object], out: GpuTensorHandle,
                           t: str) -> None:
        """Same-shape elementwise over ranges; 1x1 device operands bound
        whole. The shader skeleton's split path (``hooks_compute._elementwise``);
        one-node kernels split through ``fused_ranges``.

        Raises:
            Unsupported: another broadcast involves the large tensor.
        """
        n = numel(out.shape)
        handles = [o for o in operands if isinstance(o, GpuTensorHandle)]
        if any(numel(h.shape) not in (1, n) for h in handles):
            raise Unsupported("wgpu: broadcasting over a tensor larger than one storage binding")
        sliced = [numel(h.shape) == n for h in handles]
        dtypes = [o.dtype if isinstance(o, GpuTensorHandle) else None for o in operands]
        broadcast = not all(sliced)
        strides = [[1] if s else [0] for s in sliced]
        vec_ok = (not broadcast and out.dtype == "float32" and t == "f32"
                  and all(d in (None, "float32") for d in dtypes))
        sized = [out.dtype] + [h.dtype for h, s in zip(handles, sliced) if s]
        for s, c in self.element_ranges(n, sized):
            vec4 = vec_ok and c % 4 == 0
            spec = ew.ElementwiseSpec(expr, dtypes, out.dtype, t, broadcast, vec4)
            u = self._elementwise_uniform(spec, c, [c] if broadcast else [], dtypes,
                                          strides, operands)
            src_key = ("ew", expr, tuple(dtypes), out.dtype, t, broadcast, vec4)
            src = self.sources.get(src_key)
            if src is None:
                src = self.sources[src_key] = ew.render(spec, u)
            with self._range_views(handles + [out], sliced + [True], s, c) as views:
                self.run(src, len(handles), 1, [self.bind(v) for v in views], u.pack(),
                         self.groups(c // 4 if vec4 else c))

    # ------------------------------------------------------------ fused kernels
    def fused_ranges(self, kernel: FusedKernel, inputs: Sequence[GpuTensorHandle],
                     outs: list[GpuTensorHandle], packed: bytes,
                     workgroup: tuple[int, ...]) -> None:
        """Run a splittable fused kernel once per range.

        Elementwise: outputs and inputs of the output's shape are bound per
        range; other inputs (broadcast, scalars) and the domain flag whole.
        ``h[0].x`` (the loop end) becomes the range's end and ``r.x`` its
        first element, so generators, Philox counters and broadcast index
        math see global indices. Partial pass of a full reduction over
        length R: inputs of R elements (and extra outputs) are bound per
        range, the partials whole; each range's threads accumulate the
        elements r of their chunk inside it and combine with the partials of
        the earlier ranges (``r.z``).

        Raises:
            Unsupported: the kernel is not splittable, or a large operand is
                not one of the split ones.
        """
        split: SplitPlan | None = kernel.split
        if split is None:
            raise Unsupported("wgpu: fused kernel over a large tensor cannot run split")
        flagged = kernel.has_flag
        data_outs = outs[:-1] if flagged else outs
        if split.kind == "elementwise":
            shape = matlab_shape(data_outs[0].shape)
            if any(matlab_shape(o.shape) != shape for o in data_outs):
                raise Unsupported("wgpu: fused outputs of different shapes over a large tensor")
            n, multiple = numel(shape), 1
            sliced = [matlab_shape(h.shape) == shape for h in inputs] + [True] * len(data_outs)
        else:
            n, multiple = split.length, split.chunks
            sliced = ([numel(h.shape) == n for h in inputs] + [False]
                      + [numel(o.shape) == n for o in data_outs[1:]])
        sliced += [False] * (len(outs) - len(data_outs))
        handles = list(inputs) + list(outs)
        if any(self.is_large(h) and not s for h, s in zip(handles, sliced)):
            raise Unsupported("wgpu: a large fused operand is broadcast or partial")
        sized = [h.dtype for h, s in zip(handles, sliced) if s]
        if flagged:
            self.batcher.clear(*self.bind(outs[-1]))
        threads = 1
        for w in workgroup:
            threads *= w
        cap = min(kernel.max_workgroups or self.ctx.max_groups_per_dim,
                  self.ctx.max_groups_per_dim)
        for k, (s, c) in enumerate(self.element_ranges(n, sized, multiple)):
            if split.kind == "elementwise":
                params = struct.pack("<I", s + c) + packed[4:] + range_tail(s)
                groups = (min(max(1, -(-c // threads)), cap), 1, 1)
            else:
                params = packed + range_tail(s, s + c, k > 0)
                groups = tuple(kernel.workgroups())
            with self._range_views(handles, sliced, s, c) as views:
                self.run(kernel.source, len(inputs), len(outs), [self.bind(v) for v in views],
                         params, groups, kernel.entry_point, workgroup, key=kernel.cache_key)

    # ------------------------------------------------------------ gather
    def gather_ranges(self, a: GpuTensorHandle, index: GpuTensorHandle,
                      out: GpuTensorHandle) -> None:
        """``out = a(index)`` when any of them is large: the index and output
        in parallel ranges, and for each, one dispatch per range of the
        source writing the elements whose index falls inside it."""
        n, m = numel(out.shape), numel(a.shape)
        if numel(index.shape) != n:
            raise Unsupported("wgpu: gather index and output sizes differ")

        def params(count: int, start: int, span: int) -> UniformStruct:
            return (UniformStruct().add("n", "u32", count).add("m", "u32", max(1, m))
                    .add("s", "u32", start).add("c", "u32", span))

        src = ix.render_gather_range(a.dtype, index.dtype, params(0, 0, 0))
        split_src = self.is_large(a)
        src_spans = self.element_ranges(m, [a.dtype]) if split_src else [(0, m)]
        for s, c in self.element_ranges(n, [out.dtype, index.dtype]):
            with self._range_views([index, out], [True, True], s, c) as (iv, ov):
                for s2, c2 in src_spans:
                    with self._range_views([a], [split_src], s2, c2) as (av,):
                        self.run(src, 2, 1, [self.bind(av), self.bind(iv), self.bind(ov)],
                                 params(c, s2, c2).pack(), self.groups(c))

    # ------------------------------------------------------------ reductions
    def reduce_ranges(self, op: str, a: GpuTensorHandle, dims: Sequence[int] | None,
                      omitnan: bool, out_dtype: str) -> GpuTensorHandle:
        """A reduction of a large tensor.

        Full (all dims, or every non-singleton dim): one partial per range,
        then one reduction of the partials. Over the leading dims (``sum(A)``
        of a tall matrix): ranges of whole columns, each reduced into its
        slice of the output.

        Raises:
            Unsupported: other reductions (trailing dims...), or an op or
                class without a partial combine for a full reduction.
        """
        shape = a.shape
        full = dims is None or all(shape[d] == 1 for d in range(len(shape)) if d not in dims)
        if not full:
            return self._reduce_leading(op, a, dims, omitnan, out_dtype)
        if op not in _RANGE_REDUCE or a.dtype not in _REDUCE_DTYPES:
            raise Unsupported(f"wgpu: reduce {op} over dims {dims} of a large tensor")
        part_op, combine_op = _RANGE_REDUCE[op]
        n = numel(shape)
        spans = self.element_ranges(n, [a.dtype])
        item = DEVICE_TYPES[out_dtype][1]
        with self.op(f"reduce_{op}_split"):
            partials = self.alloc((len(spans), 1), out_dtype)
            try:
                for k, (s, c) in enumerate(spans):
                    with self._range_views([a], [True], s, c) as (v,):
                        part = self._reduce_axis(part_op, v, 1, c, 1, omitnan, out_dtype, (1, 1))
                    try:
                        self.batcher.copy(self.buffer_of(part)[0], self.buffer_of(partials)[0],
                                          item, 0, k * item)
                    finally:
                        self.release(part)
                # a NaN partial of a sum comes from the data (inf - inf): keep it
                total = self._reduce_axis(combine_op, partials, 1, len(spans), 1,
                                          omitnan and combine_op != "sum", out_dtype, (1, 1))
            finally:
                self.release(partials)
            if op != "mean":
                return total
            try:
                return self.elem_binary("rdivide", total, float(n), out_dtype)
            finally:
                self.release(total)

    def _reduce_leading(self, op: str, a: GpuTensorHandle, dims: Sequence[int],
                        omitnan: bool, out_dtype: str) -> GpuTensorHandle:
        shape = a.shape
        red = [d for d in range(len(shape)) if d in dims and shape[d] != 1]
        if not red:
            raise Unsupported("wgpu: reduce over singleton dims of a large tensor")
        hi = red[-1]
        if any(shape[d] != 1 for d in range(hi + 1) if d not in red):
            raise Unsupported(f"wgpu: reduce over dims {dims} of a large tensor")
        length = numel(shape[:hi + 1])
        out_shape = matlab_shape([1 if d in dims else e for d, e in enumerate(shape)])
        item = DEVICE_TYPES[self.norm_dtype(out_dtype)][1]
        with self.op(f"reduce_{op}_split"):
            out = self.alloc(out_shape, out_dtype)
            for s, c in self.element_ranges(numel(shape), [a.dtype], length):
                cols = c // length
                with self._range_views([a], [True], s, c) as (v,):
                    part = self._reduce_axis(op, v, 1, length, cols, omitnan, out_dtype,
                                             (1, cols))
                try:
                    self.batcher.copy(self.buffer_of(part)[0], self.buffer_of(out)[0],
                                      cols * item, 0, s // length * item)
                finally:
                    self.release(part)
            return out
