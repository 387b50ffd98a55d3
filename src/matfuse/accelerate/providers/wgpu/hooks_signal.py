"""Signal hooks on vectors: polyval and conv1d (filter, sort, fft still fall back)."""

from __future__ import annotations

from matfuse.accelerate_api import GpuTensorHandle, Unsupported
from matfuse.accelerate.providers.wgpu.core import WgpuCore, numel
from matfuse.accelerate.providers.wgpu.shaders import signal as sg

_FLOAT_TYPES = {"float32": "f32", "float64": "f64"}
_CONV_MODES = ("full", "same", "valid")


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
        u = sg.conv_params(nu, nv, n_out, offset)
        with self.op("conv1d"):
            out = self.alloc(out_shape, a.dtype)
            if n_out:
                self.run(sg.render_conv1d(t, u), 2, 1,
                         [self.bind(a), self.bind(b), self.bind(out)], u.pack(), self.groups(n_out))
            return out
