"""Radix-2 Stockham FFT along one axis (power-of-two lengths).

A first kernel copies the input (real or complex) into an interleaved complex
work buffer; then ``log2(n)`` stage kernels ping-pong between two buffers,
one thread per butterfly. Twiddles ``exp(-+2*pi*i*t/n)``, ``t < n/2``, come
from the host in float64 (the drivers' f64 sin/cos are not trusted). The
inverse's ``1/n`` is applied by the last stage.
"""

from __future__ import annotations

import numpy as np

from matfuse.accelerate.providers.wgpu.shaders.common import UniformStruct

_HEAD = """@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let stride = nwg.x * 256u;
"""


def twiddles(n: int, inverse: bool, complex_dtype: str) -> np.ndarray:
    t = np.arange(n // 2, dtype=np.float64)
    sign = 1.0 if inverse else -1.0
    return np.exp(sign * 2j * np.pi * t / n).astype(complex_dtype).reshape(-1, 1)


def to_complex_params(count: int) -> UniformStruct:
    return UniformStruct().add("n", "u32", count)


def render_to_complex(in_type: str, t: str, uniform: UniformStruct) -> str:
    value = "in0[i]" if in_type.startswith("vec2") else f"vec2<{t}>(in0[i], {t}(0))"
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> in0: array<{in_type}>;
@group(0) @binding(1) var<storage, read_write> out0: array<vec2<{t}>>;
@group(0) @binding(2) var<uniform> p: Params;
{_HEAD}  for (var i = gid.x; i < p.n; i = i + stride) {{ out0[i] = {value}; }}
}}
"""


def stage_params(pre: int, n: int, nlines: int, ns: int, scale: float, t: str) -> UniformStruct:
    return (UniformStruct().add("pre", "u32", pre).add("n", "u32", n)
            .add("half", "u32", n // 2).add("ns", "u32", ns)
            .add("nthreads", "u32", nlines * (n // 2)).add("twstep", "u32", n // (2 * ns))
            .add("scale", t, scale))


def render_stage(t: str, uniform: UniformStruct) -> str:
    """One Stockham radix-2 stage (Govindaraju et al.'s formulation) on
    strided lines: element i of a line is at ``base + i * pre``."""
    c = f"vec2<{t}>"
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> src: array<{c}>;
@group(0) @binding(1) var<storage, read> tw: array<{c}>;
@group(0) @binding(2) var<storage, read_write> dst: array<{c}>;
@group(0) @binding(3) var<uniform> p: Params;
{_HEAD}  for (var g = gid.x; g < p.nthreads; g = g + stride) {{
    let line = g / p.half; let j = g % p.half;
    let base = (line % p.pre) + (line / p.pre) * p.pre * p.n;
    let k = j % p.ns;
    let w = tw[k * p.twstep];
    let v0 = src[base + j * p.pre];
    let x1 = src[base + (j + p.half) * p.pre];
    let v1 = {c}(x1.x * w.x - x1.y * w.y, x1.x * w.y + x1.y * w.x);
    let d = (j / p.ns) * p.ns * 2u + k;
    dst[base + d * p.pre] = (v0 + v1) * p.scale;
    dst[base + (d + p.ns) * p.pre] = (v0 - v1) * p.scale;
  }}
}}
"""
