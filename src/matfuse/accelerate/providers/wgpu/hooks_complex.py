"""Complex hooks: elementwise arithmetic, parts, casts and sum/mean on
interleaved (re, im) buffers (``complex64`` = vec2<f32>, ``complex128`` =
vec2<f64>; upload/download copy NumPy's own interleaved layout as is).

Native here: the operations of the device code's complex table
(``complex_table``: arithmetic, power, comparisons, parts, abs, angle,
sign, exp/log/sqrt, the forward trigonometric and hyperbolic functions,
log2/log10, expm1, log1p, rounding of parts, predicates, ``complex(re, im)`` as
elem_binary op ``"complex"``) with implicit expansion (complex or real
operands, complex scalars), casts between real and complex float classes,
and ``sum``/``mean`` (including 'all' and N-D dims). Everything else on
complex data (the inverse trigonometric and hyperbolic functions among it)
raises Unsupported and the caller runs it on the host (a
counted fallback).
"""

from __future__ import annotations

from typing import Sequence

from matfuse.accelerate_api import GpuTensorHandle, Unsupported
from matfuse.accelerate.providers.wgpu.core import WgpuCore, matlab_shape, numel
from matfuse.accelerate.providers.wgpu.shaders import complex as cx
from matfuse.accelerate_api.device_code import complex_table
from matfuse.accelerate.providers.wgpu.shaders.elementwise import broadcast_shape, collapse_broadcast

_REAL_OF = {"complex64": "float32", "complex128": "float64"}
_FLOATS = ("float32", "float64", "complex64", "complex128")
#: reductions done as real reductions over a (2, ...) view of the buffer
COMPLEX_REDUCE_OPS = ("sum", "mean")


def is_complex_call(op: str, operands: Sequence[object], out_dtype: str) -> bool:
    """Whether an elementwise call must take the complex kernels."""
    if op in ("complex", "angle") or str(out_dtype).startswith("complex"):
        return True
    for o in operands:
        if isinstance(o, complex):
            return True
        if isinstance(o, GpuTensorHandle) and o.dtype in cx.COMPLEX_DTYPES:
            return True
    return False


class ComplexHooks(WgpuCore):
    def complex_elementwise(self, op: str, operands: list[object],
                            out_dtype: str) -> GpuTensorHandle:
        """One complex elementwise kernel for ``op`` on 1 or 2 operands.

        Args:
            op: an op of the device code's ``complex_table`` with as
                many operands.
            operands: handles (any float/logical/int32 dtype, real operands
                are promoted) or Python scalars.
            out_dtype: complex for arithmetic, real for parts/abs/angle,
                bool for predicates and comparisons.

        Raises:
            Unsupported: other ops, dtypes or result classes (host fallback).
        """
        entry = complex_table.lookup(op, len(operands))
        if entry is None:
            raise Unsupported(f"wgpu: complex {op} runs on the host")
        out_dtype = self.norm_dtype(out_dtype)
        handles = [o for o in operands if isinstance(o, GpuTensorHandle)]
        if not handles:
            raise Unsupported("wgpu: elementwise op without a device operand")
        for h in handles:
            self.check(h)
            if h.dtype not in _FLOATS and h.dtype not in ("bool", "int32", "uint32"):
                raise Unsupported(f"wgpu: complex op on {h.dtype}")
        if op == "complex" and any(h.dtype in cx.COMPLEX_DTYPES for h in handles):
            raise Unsupported("wgpu: complex() of complex parts")
        t = self._complex_compute_type(out_dtype, handles)
        if t == "f64":
            self.need_f64()
        out_shape = broadcast_shape([h.shape for h in handles])
        n = numel(out_shape)
        dtypes = [o.dtype if isinstance(o, GpuTensorHandle) else None for o in operands]
        scalars = {k: complex(o) for k, o in enumerate(operands)
                   if not isinstance(o, GpuTensorHandle)}
        with self.op(f"complex_{op}"):
            out = self.alloc(out_shape, out_dtype)
            if n == 0:
                return out
            broadcast = any(numel(h.shape) != n for h in handles)
            dims: list[int] = []
            strides: list[list[int]] = []
            if broadcast:
                dims, strides = collapse_broadcast(out_shape, [h.shape for h in handles])
            expr, helpers = cx.expression(entry, t)
            spec = cx.ComplexSpec(expr, entry.kind, helpers, dtypes, out_dtype, t, broadcast)
            u = cx.uniform(spec, n, dims, strides, scalars)
            key = ("cx", op, tuple(dtypes), out_dtype, t, broadcast)
            src = self.sources.get(key)
            if src is None:
                src = self.sources[key] = cx.render(spec, u)
            bufs = [self.bind(h) for h in handles] + [self.bind(out)]
            self.run(src, len(handles), 1, bufs, u.pack(), self.groups(n))
            return out

    @staticmethod
    def _complex_compute_type(out_dtype: str, handles: list[GpuTensorHandle]) -> str:
        """Single work for single results; comparisons of all-single inputs
        in single; everything else in double."""
        if out_dtype in ("complex64", "float32"):
            return "f32"
        if out_dtype == "bool" and all(h.dtype in ("complex64", "float32", "bool")
                                       for h in handles):
            return "f32"
        return "f64"

    def complex_cast(self, a: GpuTensorHandle, dtype: str) -> GpuTensorHandle:
        """Casts between real/complex float classes (complex -> real keeps
        the real part, as NumPy's and the host's cast)."""
        dtype = self.norm_dtype(dtype)
        if dtype in cx.COMPLEX_DTYPES:
            return self.complex_elementwise("identity", [a], dtype)
        if a.dtype in cx.COMPLEX_DTYPES and dtype in ("float32", "float64"):
            return self.complex_elementwise("real", [a], dtype)
        raise Unsupported(f"wgpu: cast of {a.dtype} to {dtype}")

    def complex_reduce(self, op: str, a: GpuTensorHandle, dims: Sequence[int] | None,
                       omitnan: bool, out_dtype: str) -> GpuTensorHandle:
        """sum/mean of a complex tensor: the same buffer viewed as a real
        tensor of shape (2, ...) reduced over the shifted dims, whose
        (2, ...) result is again an interleaved complex tensor. No copies."""
        out_dtype = self.norm_dtype(out_dtype)
        if op not in COMPLEX_REDUCE_OPS or omitnan or out_dtype != a.dtype:
            raise Unsupported(f"wgpu: complex reduce {op} omitnan={omitnan} -> {out_dtype}")
        real = _REAL_OF[a.dtype]
        shape = a.shape
        if dims is None:
            view_shape: tuple[int, ...] = (2, numel(shape))
            view_dims: tuple[int, ...] = (1,)
            out_shape: tuple[int, ...] = (1, 1)
        else:
            view_shape = (2,) + tuple(shape)
            view_dims = tuple(int(d) + 1 for d in dims)
            out_shape = matlab_shape([1 if d in dims else s for d, s in enumerate(shape)])
        view = GpuTensorHandle(view_shape, a.device_id, a.buffer_id, real)
        with self.op(f"complex_reduce_{op}"):
            # ComputeHooks.reduce (this mixin's subclass) on the real view
            parts = self.reduce(op, view, view_dims, False, real)  # type: ignore[attr-defined]
            return GpuTensorHandle(out_shape, parts.device_id, parts.buffer_id, a.dtype)
