"""Signal hooks: polyval, conv1d (vectors), conv2d (matrices), filter along a dim,
sort and radix-2 fft along a dim."""

from __future__ import annotations

from matfuse.accelerate_api import GpuTensorHandle, HostTensor, Unsupported
from matfuse.accelerate.providers.wgpu.core import WgpuCore, numel
from matfuse.accelerate.providers.wgpu.shaders import fft as fx
from matfuse.accelerate.providers.wgpu.shaders import signal as sg
from matfuse.accelerate.providers.wgpu.shaders import sort as so
from matfuse.accelerate.providers.wgpu.shaders.common import STORAGE_TYPE, groups_2d

_FLOAT_TYPES = {"float32": "f32", "float64": "f64"}
_CONV_MODES = ("full", "same", "valid")
_COMPLEX_OF = {"float32": "complex64", "complex64": "complex64",
               "float64": "complex128", "complex128": "complex128"}


class SignalHooks(WgpuCore):
    def _float_pair(self, name: str, a: GpuTensorHandle, b: GpuTensorHandle) -> str:
        self.check(a)
        self.check(b)
        if a.dtype != b.dtype or a.dtype not in _FLOAT_TYPES:
            raise Unsupported(f"wgpu: {name} needs two real float tensors of one dtype")
        t = _FLOAT_TYPES[a.dtype]
        if t == "f64":
            self.need_f64()
        return t

    def polyval(self, p: GpuTensorHandle, x: GpuTensorHandle) -> GpuTensorHandle:
        t = self._float_pair("polyval", p, x)
        n = numel(x.shape)
        if numel(p.shape) == 0:
            # MATLAB: polyval([], x) is zeros(size(x)); an empty buffer cannot be bound.
            return self.fill(x.shape, 0.0, x.dtype)
        self.check_loop_trips(numel(p.shape), "polyval")
        u = sg.polyval_params(numel(p.shape), n)
        with self.op("polyval"):
            out = self.alloc(x.shape, x.dtype)
            if n:
                self.run(sg.render_polyval(t, u), 2, 1,
                         [self.bind(p), self.bind(x), self.bind(out)], u.pack(), self.groups(n))
            return out

    def conv1d(self, a: GpuTensorHandle, b: GpuTensorHandle, mode: str) -> GpuTensorHandle:
        t = self._float_pair("conv1d", a, b)
        if mode not in _CONV_MODES:
            raise Unsupported(f"wgpu: conv mode {mode}")
        nu, nv = numel(a.shape), numel(b.shape)
        if nu == 0 or nv == 0:
            raise Unsupported("wgpu: conv of an empty vector runs on the host")
        if mode == "full":
            n_out, offset = nu + nv - 1, 0
        elif mode == "same":
            n_out, offset = nu, nv // 2
        else:
            n_out, offset = max(nu - nv + 1, 0), nv - 1
        # Orientation as the host: a column stays a column, anything else is a row.
        column = len(a.shape) == 2 and a.shape[1] == 1 and a.shape[0] != 1
        out_shape = (n_out, 1) if column else (1, n_out)
        self.check_loop_trips(min(nu, nv), "conv")
        u = sg.conv_params(nu, nv, n_out, offset)
        with self.op("conv1d"):
            out = self.alloc(out_shape, a.dtype)
            if n_out:
                self.run(sg.render_conv1d(t, u), 2, 1,
                         [self.bind(a), self.bind(b), self.bind(out)], u.pack(), self.groups(n_out))
            return out

    def conv2d(self, a: GpuTensorHandle, b: GpuTensorHandle, mode: str) -> GpuTensorHandle:
        """MATLAB ``conv2(A, B, shape)`` of two real 2-D matrices of one float
        dtype. Direct convolution, one thread per output element.

        Raises:
            Unsupported: N-D, empty, complex, integer, logical or mixed-class
                inputs, or an unknown mode (the host decides those).
        """
        self.check(a)
        self.check(b)
        if a.dtype != b.dtype or a.dtype not in _FLOAT_TYPES:
            # mixed single/double: the caller's class rules decide on the host
            raise Unsupported("wgpu: conv2d needs two real float matrices of one dtype")
        if len(a.shape) != 2 or len(b.shape) != 2 or mode not in _CONV_MODES:
            raise Unsupported(f"wgpu: conv2d of N-D inputs or mode {mode}")
        out_dtype = a.dtype
        t = _FLOAT_TYPES[out_dtype]
        if t == "f64":
            self.need_f64()
        (ar, ac), (br, bc) = a.shape, b.shape
        if mode == "full":
            out_shape, origin = (ar + br - 1, ac + bc - 1), (0, 0)
        elif mode == "same":
            out_shape, origin = (ar, ac), (br // 2, bc // 2)
        else:
            out_shape, origin = (max(ar - br + 1, 0), max(ac - bc + 1, 0)), (br - 1, bc - 1)
        n = numel(out_shape)
        if numel(a.shape) == 0 or numel(b.shape) == 0:
            # empty operands follow the host's shape rules (no work to offload)
            raise Unsupported("wgpu: conv2d of an empty matrix runs on the host")
        self.check_loop_trips(min(ar, br) * min(ac, bc), "conv2")
        u = sg.conv2d_params(ar, ac, br, bc, out_shape[0], out_shape[1], *origin)
        with self.op("conv2d"):
            out = self.alloc(out_shape, out_dtype)
            if n:
                src = sg.render_conv2d(t, u)
                self.run(src, 2, 1, [self.bind(a), self.bind(b), self.bind(out)], u.pack(),
                         self.groups(n))
            return out

    def filter(self, b: GpuTensorHandle, a: GpuTensorHandle, x: GpuTensorHandle,
               dim: int) -> GpuTensorHandle:
        t = self._float_pair("filter", b, x)
        self._float_pair("filter", a, x)
        nb, na = numel(b.shape), numel(a.shape)
        if nb == 0 or na == 0 or na > 1 and max(nb, na) > sg.FILTER_MAX_TAPS:
            raise Unsupported("wgpu: filter with empty or long recursive coefficient vectors")
        shape = x.shape
        length = shape[dim] if dim < len(shape) else 1
        pre, post = numel(shape[:dim]), numel(shape[dim + 1:])
        fir = na == 1
        if not fir and length * max(nb, na) > sg.IIR_MAX_WORK:
            raise Unsupported("wgpu: recursive filter of long lines runs on the host")
        self.check_loop_trips(min(nb, length) if fir else length * max(nb, na), "filter")
        u = sg.filter_params(nb, na, pre, length, post)
        with self.op("filter"):
            out = self.alloc(shape, x.dtype)
            if numel(shape):
                src = sg.render_fir(t, u) if fir else sg.render_filter(t, u)
                self.run(src, 3, 1,
                         [self.bind(b), self.bind(a), self.bind(x), self.bind(out)], u.pack(),
                         self.groups(numel(shape) if fir else pre * post))
            return out

    def sort(self, a: GpuTensorHandle, dim: int,
             descending: bool) -> tuple[GpuTensorHandle, GpuTensorHandle]:
        self.check(a)
        if a.dtype not in _FLOAT_TYPES:
            raise Unsupported(f"wgpu: sort of {a.dtype} runs on the host")
        self.need_f64()   # the indices are double
        shape = a.shape
        length = shape[dim] if dim < len(shape) else 1
        if length > so.SORT_MAX_LEN:
            return self.sort_long_lines(a, dim, descending)
        pre, post = numel(shape[:dim]), numel(shape[dim + 1:])
        padded = 1 << max(length - 1, 0).bit_length()
        u = so.params(pre, length, post, padded)
        with self.op("sort"):
            vals = self.alloc(shape, a.dtype)
            idx = self.alloc(shape, "float64")
            if numel(shape):
                self.run(so.render(_FLOAT_TYPES[a.dtype], descending, u), 1, 2,
                         [self.bind(a), self.bind(vals), self.bind(idx)], u.pack(),
                         groups_2d(pre * post, self.ctx.max_groups_per_dim),
                         workgroup=(so.SORT_WORKGROUP,))
            return vals, idx

    def fft(self, a: GpuTensorHandle, n: int | None, dim: int, inverse: bool) -> GpuTensorHandle:
        self.check(a)
        if a.dtype not in _COMPLEX_OF:
            raise Unsupported(f"wgpu: fft of {a.dtype} runs on the host")
        cdtype = _COMPLEX_OF[a.dtype]
        t = "f32" if cdtype == "complex64" else "f64"
        if t == "f64":
            self.need_f64()
        shape = a.shape
        length = shape[dim] if dim < len(shape) else 1
        if (n is not None and n != length) or length == 0 or length & (length - 1):
            raise Unsupported("wgpu: fft needs a power-of-two length without padding")
        total = numel(shape)
        pre, nlines = numel(shape[:dim]), total // length
        with self.op("ifft" if inverse else "fft"):
            work = self.alloc(shape, cdtype)
            if total == 0:
                return work
            cu = fx.to_complex_params(total)
            self.run(fx.render_to_complex(STORAGE_TYPE[a.dtype], t, cu), 1, 1,
                     [self.bind(a), self.bind(work)], cu.pack(), self.groups(total))
            if length == 1:
                return work
            spare = self.alloc(shape, cdtype)
            tw = self.upload(HostTensor.from_array(fx.twiddles(length, inverse, cdtype)))
            ns, last_scale = 1, (1.0 / length if inverse else 1.0)
            while ns < length:
                u = fx.stage_params(pre, length, nlines, ns, last_scale if 2 * ns == length
                                    else 1.0, t)
                self.run(fx.render_stage(t, u), 2, 1,
                         [self.bind(work), self.bind(tw), self.bind(spare)], u.pack(),
                         self.groups(nlines * (length // 2)))
                work, spare = spare, work
                ns *= 2
            # on failure the op scope frees these; on success release them here
            self.release(spare)
            self.release(tw)
            return work
