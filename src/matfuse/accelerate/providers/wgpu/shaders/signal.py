"""Signal kernels on vectors: polyval (Horner) and conv1d (direct convolution).

One thread per output element, grid-striding past the dispatch cap. Both use
only + and *, so f64 needs none of the drivers' transcendentals.
"""

from __future__ import annotations

from matfuse.accelerate.providers.wgpu.shaders.common import UniformStruct

_HEAD = """@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let stride = nwg.x * 256u;
"""


def polyval_params(n_coeffs: int, n_points: int) -> UniformStruct:
    return UniformStruct().add("np", "u32", n_coeffs).add("n", "u32", n_points)


def render_polyval(t: str, uniform: UniformStruct) -> str:
    """``out[i] = ((p0*x + p1)*x + ...)`` with p highest power first, as MATLAB."""
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> coeffs: array<{t}>;
@group(0) @binding(1) var<storage, read> xs: array<{t}>;
@group(0) @binding(2) var<storage, read_write> out0: array<{t}>;
@group(0) @binding(3) var<uniform> p: Params;
{_HEAD}  for (var i = gid.x; i < p.n; i = i + stride) {{
    let x = xs[i];
    var acc = {t}(0);
    for (var k = 0u; k < p.np; k = k + 1u) {{ acc = acc * x + coeffs[k]; }}
    out0[i] = acc;
  }}
}}
"""


def conv_params(nu: int, nv: int, n_out: int, offset: int) -> UniformStruct:
    return (UniformStruct().add("nu", "u32", nu).add("nv", "u32", nv)
            .add("n", "u32", n_out).add("offset", "u32", offset))


def render_conv1d(t: str, uniform: UniformStruct) -> str:
    """``out[i] = full[i + offset]``, ``full[k] = sum_j u[j] * v[k - j]``;
    summed in increasing j like a direct host loop."""
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> u: array<{t}>;
@group(0) @binding(1) var<storage, read> v: array<{t}>;
@group(0) @binding(2) var<storage, read_write> out0: array<{t}>;
@group(0) @binding(3) var<uniform> p: Params;
{_HEAD}  for (var i = gid.x; i < p.n; i = i + stride) {{
    let k = i + p.offset;
    var lo = 0u;
    if (k + 1u > p.nv) {{ lo = k + 1u - p.nv; }}
    let hi = min(k, p.nu - 1u);
    var acc = {t}(0);
    for (var j = lo; j <= hi; j = j + 1u) {{ acc = acc + u[j] * v[k - j]; }}
    out0[i] = acc;
  }}
}}
"""
