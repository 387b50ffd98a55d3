"""Tiled matrix product C = A*B for column-major 2-D f32/f64 tensors.

A 16x16 workgroup computes a 64x64 tile of C, each thread a 4x4 register
block; A and B tiles of depth 16 are staged through workgroup memory. The
inner loops are unrolled here in Python: WGSL private arrays indexed in
loops end up in (slow) local memory on some drivers.

Split-k: workgroup ``z`` sums only depth slice ``[z*kc, (z+1)*kc)`` (``kc`` a
multiple of 16) into its own page of C; the caller then sums the pages. A
product with few output tiles and a long inner dimension (the ``X'*X`` of
``cov``: 16x4e6 times 4e6x16 is one tile) would otherwise run on one
workgroup.
"""

from __future__ import annotations

from matfuse.accelerate.providers.wgpu.shaders.common import UniformStruct

TILE = 64
DEPTH = 16


#: split the depth when the output has at most this many tiles ...
SPLIT_MAX_TILES = 16
#: ... and each slice still gets at least this depth
SPLIT_MIN_DEPTH = 1024
#: most slices (pages of partial sums)
SPLIT_MAX_SLICES = 512


def split_slices(m: int, k: int, n: int) -> tuple[int, int]:
    """(number of depth slices, depth per slice) for an m x k times k x n product."""
    tiles = -(-m // TILE) * -(-n // TILE)
    if tiles > SPLIT_MAX_TILES or k < 2 * SPLIT_MIN_DEPTH:
        return 1, k
    slices = min(SPLIT_MAX_SLICES, k // SPLIT_MIN_DEPTH, max(1, 1024 // tiles))
    kc = -(-k // slices)
    kc = -(-kc // DEPTH) * DEPTH
    return -(-k // kc), kc


def params(m: int, k: int, n: int, kc: int | None = None) -> UniformStruct:
    return (UniformStruct().add("m", "u32", m).add("k", "u32", k).add("n", "u32", n)
            .add("kc", "u32", k if kc is None else kc))


def render(t: str, uniform: UniformStruct) -> str:
    zero = "0.0lf" if t == "f64" else "0.0f"
    decl_acc = "\n".join(f"  var c{i}{j}: T = {zero};" for j in range(4) for i in range(4))
    loads = "\n".join(
        [f"      let a{i} = ta[kk * 64u + lid.x + {16 * i}u];" for i in range(4)]
        + [f"      let b{j} = tb[(lid.y + {16 * j}u) * 16u + kk];" for j in range(4)])
    fmas = "\n".join(f"      c{i}{j} = c{i}{j} + a{i} * b{j};" for j in range(4) for i in range(4))
    stores = "\n".join(
        f"  if (row0 + lid.x + {16 * i}u < p.m && col0 + lid.y + {16 * j}u < p.n) {{ "
        f"c[page + (row0 + lid.x + {16 * i}u) + (col0 + lid.y + {16 * j}u) * p.m] = c{i}{j}; }}"
        for j in range(4) for i in range(4))
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
  let kbeg = wid.z * p.kc;
  let kend = min(kbeg + p.kc, p.k);
  let page = wid.z * p.m * p.n;
{decl_acc}
  for (var k0 = kbeg; k0 < kend; k0 = k0 + 16u) {{
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
{loads}
{fmas}
    }}
    workgroupBarrier();
  }}
{stores}
}}
"""
