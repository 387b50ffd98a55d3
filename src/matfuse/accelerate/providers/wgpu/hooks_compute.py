"""Compute hooks: elementwise, casts, reductions, scans, matmul (complex data
goes to ``hooks_complex``)."""

from __future__ import annotations

from typing import Sequence

from matfuse.accelerate_api import GpuTensorHandle, Unsupported, elementwise_kernel
from matfuse.accelerate.providers.wgpu.core import matlab_shape, numel
from matfuse.accelerate.providers.wgpu.hooks_complex import ComplexHooks, is_complex_call
from matfuse.accelerate.providers.wgpu.shaders import elementwise as ew
from matfuse.accelerate.providers.wgpu.shaders import matmul as mm
from matfuse.accelerate.providers.wgpu.shaders import reduce as rd
from matfuse.accelerate.providers.wgpu.shaders import scan as sc
from matfuse.accelerate.providers.wgpu.shaders.common import groups_2d
from matfuse.accelerate.providers.wgpu.shaders.elementwise import broadcast_shape
from matfuse.accelerate_api.device_code.op_table import INTEGER_RANGES
from matfuse.accelerate_api.support import MatlabError

_SELFTEST_EXPR = "sqrt(abs(a)) * 3.0lf + a / 7.0lf"
# Workgroup-per-(output, chunk) reductions: about this many workgroups in
# all (enough to fill a large GPU), each taking at least this many elements
# (8 per thread). A fixed 8192 elements per group gave 32 loads per thread
# between 8 barrier stages for long sums (~10% of torch on the H100) and
# only 13 groups for a 100k-element sum.
_TARGET_GROUPS = 1024
_MIN_ELEMENTS_PER_GROUP = 2048


class ComputeHooks(ComplexHooks):
    # ------------------------------------------------------------ elementwise
    def elem_binary(self, op: str, a: object, b: object, out_dtype: str) -> GpuTensorHandle:
        if is_complex_call(op, (a, b), out_dtype):
            return self.complex_elementwise(op, [a, b], out_dtype)
        out = self._one_node(op, (a, b), out_dtype)
        if out is not None:
            return out
        handles = [o for o in (a, b) if isinstance(o, GpuTensorHandle)]
        t = None
        if op in ("eq", "ne", "lt", "le", "gt", "ge") \
                and {h.dtype for h in handles} >= {"float32", "float64"}:
            t = "f32"      # MATLAB compares a single with a double in single
        expr = ew.binary_expr(op, t or ew.compute_type(self.norm_dtype(out_dtype), [h.dtype for h in handles]))
        if out_dtype == "float32" and op in ("rdivide", "ldivide") and self.ctx.has_f64:
            # WGSL's f32 division may be 2.5 ulp off (NVIDIA's Vulkan driver:
            # 20-54% of quotients); the f64 quotient rounded once is IEEE's.
            expr = "T(f64(a) / f64(b))" if op == "rdivide" else "T(f64(b) / f64(a))"
        return self._elementwise(op, expr, [a, b], out_dtype, t)

    def elem_unary(self, op: str, a: GpuTensorHandle, out_dtype: str) -> GpuTensorHandle:
        if is_complex_call(op, (a,), out_dtype):
            return self.complex_elementwise(op, [a], out_dtype)
        if op == "__selftest_arith":
            return self._elementwise(op, _SELFTEST_EXPR, [a], out_dtype, "f64")
        out = self._one_node(op, (a,), out_dtype)
        if out is not None:
            return out
        t = None
        if op in ew.PREDICATES:
            t = "f32" if a.dtype in ("float32", "bool") else "f64"
        expr = ew.unary_expr(op, t or ew.compute_type(self.norm_dtype(out_dtype), [a.dtype]))
        return self._elementwise(op, expr, [a], out_dtype, t)

    def cast(self, a: GpuTensorHandle, dtype: str) -> GpuTensorHandle:
        """A copy for the same class, the complex kernels for complex data,
        else a one-node kernel (the fusion IR's cast: integers round half
        away from zero and saturate, NaN -> 0; logical is ``x ~= 0``)."""
        dtype = self.norm_dtype(dtype)
        self.check(a)
        if dtype != a.dtype and is_complex_call("cast", (a,), dtype):
            return self.complex_cast(a, dtype)
        if dtype == a.dtype:
            with self.op("cast"):
                out = self.alloc(a.shape, dtype)
                self.copy_tensor(a, out)
                return out
        with self.op("cast"):
            out = self._one_node("cast", (a,), dtype)
        if out is None:
            raise Unsupported(f"wgpu: cast {a.dtype} -> {dtype}")
        return out

    def _one_node(self, op: str, operands: Sequence[object], out_dtype: str) -> GpuTensorHandle | None:
        """``op`` as a one-node kernel of the fusion IR (the op table's WGSL
        expression through the fused-kernel emitter: the same formula as a
        fused or an unfused run of the operation), or None for real data the
        IR does not express (the caller's shader skeleton,
        ``shaders/elementwise.py``). A raised domain flag is ignored: the
        hook's real result is NaN there.

        Raises:
            Unsupported: integer data the IR does not express (the host
                computes it), a kernel computing in double on an adapter
                without shader-f64 (integer arithmetic is exact only in
                double: int32 values need 32 bits), or a launch over a large
                operand that cannot run split.
        """
        handles = [o for o in operands if isinstance(o, GpuTensorHandle)]
        for h in handles:
            self.check(h)
        out_dtype = self.norm_dtype(out_dtype)
        integer = out_dtype in INTEGER_RANGES or any(h.dtype in INTEGER_RANGES for h in handles)
        kernel = elementwise_kernel(self, op, operands, out_dtype)
        if kernel is None:
            if integer:
                raise Unsupported(f"wgpu: {op} of integer data outside the fused-kernel IR")
            return None
        if kernel.float_type == "f64":
            self.need_f64()
        outs = self.fused_elementwise(kernel, [n.handle for n in kernel.inputs],
                                      kernel.scalars, kernel.outputs)
        if kernel.has_flag:
            self.release(outs.pop())
        return outs[0]

    def _elementwise(self, name: str, expr: str, operands: list[object], out_dtype: str,
                     t: str | None = None) -> GpuTensorHandle:
        """The shader skeleton (``shaders/elementwise.py``) for real
        single/double/logical work the one-node kernels do not express
        (op table functions outside the IR's op set such as ``gamma`` and
        ``asinh``, ``imag`` of real data, the f64 self-test's expression)."""
        handles = [o for o in operands if isinstance(o, GpuTensorHandle)]
        if not handles:
            raise Unsupported("wgpu: elementwise op without a device operand")
        for h in handles:
            self.check(h)
            if h.dtype not in ew.STORED_DTYPES:
                raise Unsupported(f"wgpu: elementwise {name} of {h.dtype} outside the generated kernels")
        for s in operands:
            if isinstance(s, complex):
                raise Unsupported("wgpu: complex scalar operand")
        out_dtype = self.norm_dtype(out_dtype)
        if out_dtype not in ew.STORED_DTYPES:
            raise Unsupported(f"wgpu: elementwise {name} into {out_dtype} outside the generated kernels")
        t = t or ew.compute_type(out_dtype, [h.dtype for h in handles])
        if t == "f64":
            self.need_f64()
        out_shape = broadcast_shape([h.shape for h in handles])
        n = numel(out_shape)
        with self.op(name):
            out = self.alloc(out_shape, out_dtype)
            if n == 0:
                return out
            if self.is_large(out) or any(self.is_large(h) for h in handles):
                self.elementwise_ranges(expr, operands, out, t)
                return out
            broadcast = any(numel(h.shape) != n for h in handles)
            dtypes = [o.dtype if isinstance(o, GpuTensorHandle) else None for o in operands]
            # Four elements per thread iteration (vec4<f32>, or vec4<f64>:
            # 32-byte loads; scalar f64 loads reached 0.48 of the copy
            # bandwidth on the H100).
            vec_dtype = {"f32": "float32", "f64": "float64"}.get(t)
            vec4 = (not broadcast and n % 4 == 0 and out_dtype == vec_dtype
                    and all(d in (None, vec_dtype) for d in dtypes))
            spec = ew.ElementwiseSpec(expr, dtypes, out_dtype, t, broadcast, vec4)
            dims: list[int] = []
            strides: list[list[int]] = []   # one list per device operand, in order
            if broadcast:
                dims, strides = ew.collapse_broadcast(out_shape, [h.shape for h in handles])
            u = self._elementwise_uniform(spec, n, dims, dtypes, strides, operands)
            src_key = ("ew", expr, tuple(dtypes), out_dtype, t, broadcast, vec4)
            src = self.sources.get(src_key)
            if src is None:
                src = self.sources[src_key] = ew.render(spec, u)
            bufs = [self.bind(h) for h in handles] + [self.bind(out)]
            self.run(src, len(handles), 1, bufs, u.pack(), self.groups(n // 4 if vec4 else n))
            return out

    @staticmethod
    def _elementwise_uniform(spec: ew.ElementwiseSpec, n: int, dims: list[int],
                             dtypes: list[str | None], strides: list[list[int]],
                             operands: list[object]):
        u = ew.UniformStruct().add("n", "u32", n).add("rank", "u32", len(dims))
        u.add("pad0", "u32", 0).add("pad1", "u32", 0)
        if spec.broadcast:
            u.add_u32_array("dims", dims, ew.MAX_RANK)
            it = iter(strides)
            for k, d in enumerate(dtypes):
                if d is not None:
                    u.add_u32_array(f"st{k}", next(it), ew.MAX_RANK)
        for k, o in enumerate(operands):
            if not isinstance(o, GpuTensorHandle):
                u.add(f"s{k}", spec.t, float(o))
        return u

    # ------------------------------------------------------------ reductions
    def reduce(self, op: str, a: GpuTensorHandle, dims: Sequence[int] | None,
               omitnan: bool, out_dtype: str) -> GpuTensorHandle:
        if op not in rd.REDUCE_OPS and op != rd.COUNT_OP:
            raise Unsupported(f"wgpu: reduce {op}")
        self.check(a)
        if op == "mean" and omitnan:
            return self._mean_omitnan(a, dims, out_dtype)
        out_dtype = self.norm_dtype(out_dtype)
        if a.dtype.startswith("complex"):
            return self.complex_reduce(op, a, dims, omitnan, out_dtype)
        if self.is_large(a):
            return self.reduce_ranges(op, a, dims, omitnan, out_dtype)
        shape = a.shape
        if dims is None:
            return self._reduce_axis(op, a, 1, numel(shape), 1, omitnan, out_dtype, (1, 1))
        red = sorted({int(d) for d in dims if int(d) < len(shape) and shape[int(d)] != 1})
        out_shape = matlab_shape([1 if d in dims else n for d, n in enumerate(shape)])
        if not red:
            return self._reduce_axis(op, a, numel(shape), 1, 1, omitnan, out_dtype, out_shape)
        lo, hi = red[0], red[-1]
        if all(d in red or shape[d] == 1 for d in range(lo, hi + 1)):
            pre, length = numel(shape[:lo]), numel(shape[lo:hi + 1])
            return self._reduce_axis(op, a, pre, length, numel(shape[hi + 1:]), omitnan,
                                     out_dtype, out_shape)
        keep = [d for d in range(len(shape)) if d not in red]
        with self.op("reduce"):
            moved = self.permute(a, keep + red)
            try:
                return self._reduce_axis(op, moved, numel([shape[d] for d in keep]),
                                         numel([shape[d] for d in red]), 1, omitnan,
                                         out_dtype, out_shape)
            finally:
                self.release(moved)

    def moments(self, op: str, a: GpuTensorHandle, dims: Sequence[int] | None,
                weight: int, omitnan: bool) -> GpuTensorHandle:
        """var/std as two passes (mean, then the sum of centred squares), which
        is the numerically safe form; five small dispatches."""
        self.check(a)
        if op not in ("var", "std") or omitnan or a.dtype not in ("float32", "float64"):
            raise Unsupported(f"wgpu: moments {op} omitnan={omitnan} {a.dtype}")
        n = numel(a.shape) if dims is None else numel(
            [a.shape[d] for d in dims if d < len(a.shape)])
        denom = float(n if weight == 1 or n == 1 else n - 1)
        with self.op(op):
            flat = a
            if dims is None:
                flat = GpuTensorHandle((numel(a.shape), 1), a.device_id, a.buffer_id, a.dtype)
                dims = (0,)
            temps = []
            try:
                mean = self.reduce("mean", flat, dims, False, a.dtype)
                temps.append(mean)
                centred = self.elem_binary("minus", flat, mean, a.dtype)
                temps.append(centred)
                squares = self.elem_binary("times", centred, centred, a.dtype)
                temps.append(squares)
                total = self.reduce("sum", squares, dims, False, a.dtype)
                temps.append(total)
                var = self.elem_binary("rdivide", total, denom, a.dtype)
                if op == "var":
                    return var
                temps.append(var)
                return self.elem_unary("sqrt", var, a.dtype)
            finally:
                for t in temps:
                    self.release(t)

    def _mean_omitnan(self, a: GpuTensorHandle, dims: Sequence[int] | None,
                      out_dtype: str) -> GpuTensorHandle:
        """sum(omitnan) ./ count(~isnan): three dispatches."""
        with self.op("reduce_mean_omitnan"):
            total = self.reduce("sum", a, dims, True, out_dtype)
            count = self.reduce(rd.COUNT_OP, a, dims, False, out_dtype)
            try:
                return self.elem_binary("rdivide", total, count, out_dtype)
            finally:
                self.release(total)
                self.release(count)

    def _reduce_axis(self, op: str, a: GpuTensorHandle, pre: int, length: int, post: int,
                     omitnan: bool, out_dtype: str, out_shape: tuple[int, ...]) -> GpuTensorHandle:
        acc = rd.accumulator(op, a.dtype, out_dtype)
        if op == "mean" and acc == "f32" and self.ctx.has_f64:
            # single means accumulate in double, as the host's: a sum past
            # realmax divided back into range is finite there
            acc = "f64"
        if acc == "f64" or out_dtype == "float64" or a.dtype == "float64":
            self.need_f64()
        with self.op(f"reduce_{op}"):
            return self._reduce_pass(op, a, pre, length, post, omitnan, out_dtype, out_shape,
                                     acc, first=True, count=length)

    def _reduce_pass(self, op, src, pre, length, post, omitnan, out_dtype, out_shape, acc,
                     first: bool, count: int) -> GpuTensorHandle:
        nout = pre * post
        loop_limit = self.ctx.max_loop_iterations
        per_thread = length <= 8 or (pre > 1 and nout >= 2048 and length <= loop_limit)
        # each of a group's 256 threads loops chunk/256 times: at most loop_limit
        nchunks = 1 if per_thread else max(1, min(-(-_TARGET_GROUPS // max(nout, 1)),
                                                  -(-length // _MIN_ELEMENTS_PER_GROUP)),
                                           -(-length // (256 * loop_limit)))
        final = nchunks == 1
        if nout == 0 or length == 0:
            ident = {"sum": 0.0, "mean": float("nan"), "prod": 1.0, "nnz": 0.0, "any": 0.0,
                     rd.COUNT_OP: 0.0,
                     "all": 1.0, "max": 0.0, "min": 0.0}[op]
            if (op in ("max", "min")) and nout:
                raise Unsupported("wgpu: max/min of an empty dimension")
            return self.fill(out_shape, ident, out_dtype)
        chunk = -(-length // nchunks)
        spec = rd.ReduceSpec(op, src.dtype, acc, first, final, out_dtype, omitnan, per_thread)
        u = rd.params(pre, length, post, nchunks, chunk, count, acc)
        src_text = rd.render(spec, u)
        out = self.alloc(out_shape if final else (nout * nchunks, 1),
                         out_dtype if final else rd.acc_dtype(acc))
        groups = self.groups(nout) if per_thread else groups_2d(nout * nchunks, self.ctx.max_groups_per_dim)
        self.run(src_text, 1, 1, [self.bind(src), self.bind(out)], u.pack(), groups)
        if final:
            return out
        try:
            return self._reduce_pass(op, out, 1, nchunks, nout, omitnan, out_dtype, out_shape,
                                     acc, first=False, count=count)
        finally:
            self.release(out)

    def reduce_with_index(self, op: str, a: GpuTensorHandle, dim: int,
                          omitnan: bool) -> tuple[GpuTensorHandle, GpuTensorHandle]:
        self.check(a)
        self.need_f64()
        if a.dtype.startswith("complex") or a.dtype == "bool":
            raise Unsupported("wgpu: reduce_with_index dtype")
        shape = a.shape
        size = shape[dim] if dim < len(shape) else 1
        if size == 0:
            raise Unsupported("wgpu: max/min over an empty dimension")
        pre, post = numel(shape[:dim]), numel(shape[dim + 1:])
        out_shape = matlab_shape([1 if d == dim else n for d, n in enumerate(shape)])
        u = rd.params(pre, size, post, 1, size, size, "f64")
        src = rd.render_with_index(op, a.dtype, omitnan, u)
        with self.op(f"reduce_with_index_{op}"):
            vals = self.alloc(out_shape, a.dtype)
            idx = self.alloc(out_shape, "float64")
            if pre * post:
                self.run(src, 1, 2, [self.bind(a), self.bind(vals), self.bind(idx)], u.pack(),
                         groups_2d(pre * post, self.ctx.max_groups_per_dim))
            return vals, idx

    # ------------------------------------------------------------ scans
    def scan(self, op: str, a: GpuTensorHandle, dim: int, reverse: bool) -> GpuTensorHandle:
        self.check(a)
        if a.dtype.startswith("complex"):
            raise Unsupported("wgpu: complex scans run on the host")
        out_dtype = "float64" if a.dtype == "bool" else a.dtype
        if out_dtype != "float32":
            self.need_f64()
        shape = a.shape
        size = shape[dim] if dim < len(shape) else 1
        pre, post = numel(shape[:dim]), numel(shape[dim + 1:])
        src = sc.render(op, a.dtype, out_dtype, reverse, sc.params(pre, size, post))
        with self.op(op):
            out = self.alloc(shape, out_dtype)
            if numel(shape):
                for k0, steps in sc.step_ranges(size, self.ctx.max_loop_iterations):
                    u = sc.params(pre, size, post, k0, steps)
                    self.run(src, 1, 1, [self.bind(a), self.bind(out)], u.pack(),
                             self.groups(pre * post))
            return out

    # ------------------------------------------------------------ matmul
    def matmul(self, a: GpuTensorHandle, b: GpuTensorHandle) -> GpuTensorHandle:
        self.check(a)
        self.check(b)
        if a.dtype != b.dtype or a.dtype not in ("float32", "float64") or len(a.shape) != 2 \
                or len(b.shape) != 2:
            raise Unsupported("wgpu: matmul needs two 2-D float tensors of one dtype")
        m, k = a.shape
        k2, n = b.shape
        if k != k2:
            raise MatlabError("MATLAB:innerdim",
                              "Incorrect dimensions for matrix multiplication. Check that the "
                              "number of columns in the first matrix matches the number of rows "
                              "in the second matrix. To operate on each element of the matrix "
                              "individually, use TIMES (.*) for elementwise multiplication.")
        if k == 0 or m == 0 or n == 0:
            return self.fill((m, n), 0.0, a.dtype)
        t = "f32" if a.dtype == "float32" else "f64"
        slices, kc = mm.split_slices(m, k, n)
        u = mm.params(m, k, n, kc)
        src = mm.render(t, u)
        with self.op("matmul"):
            out = self.alloc((m, n, slices) if slices > 1 else (m, n), a.dtype)
            groups = (-(-m // mm.TILE), -(-n // mm.TILE), slices)
            if max(groups) > self.ctx.max_groups_per_dim:
                raise Unsupported("wgpu: matmul too large for one dispatch")
            self.run(src, 2, 1, [self.bind(a), self.bind(b), self.bind(out)], u.pack(), groups,
                     workgroup=(16, 16))
            if slices == 1:
                return out
            try:
                return self.reduce("sum", out, (2,), False, a.dtype)   # sum the pages
            finally:
                self.release(out)
