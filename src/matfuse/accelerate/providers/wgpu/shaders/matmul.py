"""Tiled matrix product C = A*B for column-major 2-D f32/f64 tensors.

Workgroup 16x16 computes a 64x64 tile of C; each thread a 4x4 register
block; A and B tiles of depth 16 are staged through workgroup memory.
"""

from __future__ import annotations

from matfuse.accelerate.providers.wgpu.shaders.common import UniformStruct

TILE = 64
DEPTH = 16


def params(m: int, k: int, n: int) -> UniformStruct:
    return UniformStruct().add("m", "u32", m).add("k", "u32", k).add("n", "u32", n).add("pad", "u32", 0)


def render(t: str, uniform: UniformStruct) -> str:
    zero = "0.0lf" if t == "f64" else "0.0f"
    return uniform.wgsl() + f"""
alias T = {t};
@group(0) @binding(0) var<storage, read> a: array<T>;
@group(0) @binding(1) var<storage, read> b: array<T>;
@group(0) @binding(2) var<storage, read_write> c: array<T>;
@group(0) @binding(3) var<uniform> p: Params;
var<workgroup> ta: array<T, {TILE * DEPTH}>;   // [kk * 64 + row]
var<workgroup> tb: array<T, {TILE * DEPTH}>;   // [col * 16 + kk]
@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {{
  let row0 = wid.x * 64u; let col0 = wid.y * 64u;
  let flat = lid.y * 16u + lid.x;
  var acc: array<T, 16>;
  for (var i = 0u; i < 16u; i = i + 1u) {{ acc[i] = {zero}; }}
  for (var k0 = 0u; k0 < p.k; k0 = k0 + 16u) {{
    for (var e = flat; e < 1024u; e = e + 256u) {{
      let r = e % 64u; let kk = e / 64u;
      let gr = row0 + r; let gk = k0 + kk;
      ta[kk * 64u + r] = select({zero}, a[min(gr + gk * p.m, p.m * p.k - 1u)], gr < p.m && gk < p.k);
      let kk2 = e % 16u; let cc = e / 16u;
      let gk2 = k0 + kk2; let gc = col0 + cc;
      tb[cc * 16u + kk2] = select({zero}, b[min(gk2 + gc * p.k, p.k * p.n - 1u)], gk2 < p.k && gc < p.n);
    }}
    workgroupBarrier();
    for (var kk = 0u; kk < 16u; kk = kk + 1u) {{
      var av: array<T, 4>; var bv: array<T, 4>;
      for (var i = 0u; i < 4u; i = i + 1u) {{
        av[i] = ta[kk * 64u + lid.x + i * 16u];
        bv[i] = tb[(lid.y + i * 16u) * 16u + kk];
      }}
      for (var j = 0u; j < 4u; j = j + 1u) {{
        for (var i = 0u; i < 4u; i = i + 1u) {{ acc[j * 4u + i] = acc[j * 4u + i] + av[i] * bv[j]; }}
      }}
    }}
    workgroupBarrier();
  }}
  for (var j = 0u; j < 4u; j = j + 1u) {{
    for (var i = 0u; i < 4u; i = i + 1u) {{
      let r = row0 + lid.x + i * 16u; let cc = col0 + lid.y + j * 16u;
      if (r < p.m && cc < p.n) {{ c[r + cc * p.m] = acc[j * 4u + i]; }}
    }}
  }}
}}
"""
