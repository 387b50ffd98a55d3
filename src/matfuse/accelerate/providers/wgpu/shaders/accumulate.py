"""accumarray's combine step (``accumulate``): one invocation per output
position scans every (index, value) pair in order and combines the values
whose index names it.

Scanning in index order makes ``sum`` add each position's values to 0 in
exactly the order ``np.add.at`` does, so the result is bitwise the host's
(WGSL has no f64 atomics, and f32 compare-exchange adds in any order). The
cost is ``n * total`` comparisons; the hook refuses calls above
``MAX_PAIR_WORK`` so a large accumarray never stalls the device.
"""

from __future__ import annotations

from matfuse.accelerate.providers.wgpu.shaders.common import UniformStruct

MAX_PAIR_WORK = 1 << 31
MAX_GROUPS = 4096

_NAN = "f64(bitcast<f32>(0x7fc00000u))"
# NaN by its bits (NVIDIA's Vulkan compiler folds acc == acc to true)
_IS_NAN = "((bitcast<u32>(f32(acc)) & 0x7fffffffu) > 0x7f800000u)"

_COMBINE = {
    "sum": ("0.0", "acc = acc + v;"),
    # NaN is ignored (fmax) unless a position holds only NaN, as the host:
    # start from NaN, take any value while the accumulator is NaN
    "max": (_NAN, f"if (v > acc || {_IS_NAN}) {{ acc = v; }}"),
    "min": (_NAN, f"if (v < acc || {_IS_NAN}) {{ acc = v; }}"),
}


def params(n: int, total: int, fill: float) -> UniformStruct:
    return (UniformStruct().add("fill", "f64", fill).add("n", "u32", n)
            .add("total", "u32", total))


def render(op: str, uniform: UniformStruct) -> str:
    start, combine = _COMBINE[op]
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> idx: array<f64>;
@group(0) @binding(1) var<storage, read> vals: array<f64>;
@group(0) @binding(2) var<storage, read_write> out: array<f64>;
@group(0) @binding(3) var<uniform> p: Params;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {{
  let stride = nwg.x * 256u;
  for (var k = gid.x; k < p.total; k = k + stride) {{
    let key = f64(k);
    var acc: f64 = {start};
    var hit = false;
    for (var i = 0u; i < p.n; i = i + 1u) {{
      if (idx[i] == key) {{
        let v = vals[i];
        {combine}
        hit = true;
      }}
    }}
    out[k] = select(p.fill, acc, hit);
  }}
}}
"""
