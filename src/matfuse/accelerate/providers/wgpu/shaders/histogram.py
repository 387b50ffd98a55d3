"""Histogram counts (``histcounts(x, edges)``): a binary search of each
element in the float64 edges and an atomic increment of its bin.

With at most ``LOCAL_BINS`` bins every workgroup counts into workgroup
memory first and adds its totals to the global bins once, so a few hot bins
do not serialise millions of global atomics. The search never counts NaN
(every ``edge <= NaN`` is false and NaN equals no edge), so there is no NaN
test for a driver to optimise away.
"""

from __future__ import annotations

from matfuse.accelerate.providers.wgpu.shaders.common import STORAGE_TYPE, UniformStruct

LOCAL_BINS = 2048
#: workgroups of one dispatch: each grid-strides over many elements, so the
#: per-workgroup flush of the local bins stays small next to the counting
MAX_GROUPS = 1024


def params(n: int, n_edges: int) -> UniformStruct:
    return (UniformStruct().add("n", "u32", n).add("ne", "u32", n_edges)
            .add("nb", "u32", n_edges - 1).add("pad", "u32", 0))


def render(dtype: str, local: bool, uniform: UniformStruct) -> str:
    """Counting kernel for data of ``dtype`` into u32 ``bins``."""
    st = STORAGE_TYPE[dtype]
    target = "local_bins" if local else "bins"
    local_decl = f"var<workgroup> local_bins: array<atomic<u32>, {LOCAL_BINS}>;\n" if local else ""
    clear = ("  for (var k = lid.x; k < p.nb; k = k + 256u) { atomicStore(&local_bins[k], 0u); }\n"
             "  workgroupBarrier();\n") if local else ""
    flush = ("  workgroupBarrier();\n"
             "  for (var k = lid.x; k < p.nb; k = k + 256u) {\n"
             "    let c = atomicLoad(&local_bins[k]);\n"
             "    if (c > 0u) { atomicAdd(&bins[k], c); }\n"
             "  }\n") if local else ""
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> xs: array<{st}>;
@group(0) @binding(1) var<storage, read> edges: array<f64>;
@group(0) @binding(2) var<storage, read_write> bins: array<atomic<u32>>;
@group(0) @binding(3) var<uniform> p: Params;
{local_decl}
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {{
{clear}  let stride = nwg.x * 256u;
  let last = edges[p.ne - 1u];
  for (var i = gid.x; i < p.n; i = i + stride) {{
    let v = f64(xs[i]);
    var lo = 0u;
    var hi = p.ne;
    loop {{
      if (lo >= hi) {{ break; }}
      let mid = (lo + hi) / 2u;
      if (edges[mid] <= v) {{ lo = mid + 1u; }} else {{ hi = mid; }}
    }}
    // lo = number of edges <= v: bin lo (1-based); v == last edge: the closed last bin
    var b = lo;
    if (v == last) {{ b = p.nb; }}
    if (b >= 1u && b <= p.nb) {{ atomicAdd(&{target}[b - 1u], 1u); }}
  }}
{flush}}}
"""
