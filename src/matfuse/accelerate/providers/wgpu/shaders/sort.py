"""Stable sort along one axis: a bitonic network per line in workgroup memory.

One workgroup per line (``pre * post`` lines); the line is padded to a power
of two with sentinels that sort after everything. The original index breaks
ties, which makes the network stable. NaN goes last ascending and first
descending, as MATLAB. Lines longer than ``SORT_MAX_LEN`` fall back.
"""

from __future__ import annotations

from matfuse.accelerate.providers.wgpu.shaders.common import UniformStruct

SORT_MAX_LEN = 2048
SORT_WORKGROUP = 256


def params(pre: int, length: int, post: int, padded: int) -> UniformStruct:
    return (UniformStruct().add("pre", "u32", pre).add("len", "u32", length)
            .add("nlines", "u32", pre * post).add("padded", "u32", padded))


def render(t: str, descending: bool, uniform: UniformStruct) -> str:
    value_order = "a > b" if descending else "a < b"
    nan_first = "true" if descending else "false"
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> in0: array<{t}>;
@group(0) @binding(1) var<storage, read_write> vals: array<{t}>;
@group(0) @binding(2) var<storage, read_write> idxs: array<f64>;
@group(0) @binding(3) var<uniform> p: Params;
var<workgroup> keys: array<{t}, {SORT_MAX_LEN}>;
var<workgroup> pos: array<u32, {SORT_MAX_LEN}>;

// NaN by its bits: naga emits v != v as an ordered not-equal (false for NaN),
// and NVIDIA's Vulkan compiler folds !(v == v) to false
fn is_nan(v: {t}) -> bool {{ return ((bitcast<u32>(f32(v)) & 0x7fffffffu) > 0x7f800000u); }}

// Does the element (a, ia) belong before (b, ib)?
fn before(a: {t}, ia: u32, b: {t}, ib: u32) -> bool {{
  if (ib >= p.len) {{ return ia < ib; }}   // padding sorts last
  if (ia >= p.len) {{ return false; }}
  let na = is_nan(a); let nb = is_nan(b);
  if (na != nb) {{ return na == {nan_first}; }}
  if (!na) {{
    if ({value_order}) {{ return true; }}
    if (a != b) {{ return false; }}
  }}
  return ia < ib;
}}

@compute @workgroup_size({SORT_WORKGROUP})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {{
  let line = wid.x + wid.y * nwg.x;
  if (line >= p.nlines) {{ return; }}
  let base = (line % p.pre) + (line / p.pre) * p.pre * p.len;
  for (var i = tid; i < p.padded; i = i + {SORT_WORKGROUP}u) {{
    pos[i] = i;
    if (i < p.len) {{ keys[i] = in0[base + i * p.pre]; }} else {{ keys[i] = {t}(0); }}
  }}
  workgroupBarrier();
  for (var k = 2u; k <= p.padded; k = k << 1u) {{
    for (var j = k >> 1u; j > 0u; j = j >> 1u) {{
      for (var i = tid; i < p.padded; i = i + {SORT_WORKGROUP}u) {{
        let l = i ^ j;
        if (l > i) {{
          let up = (i & k) == 0u;
          let swap_needed = select(before(keys[i], pos[i], keys[l], pos[l]),
                                   before(keys[l], pos[l], keys[i], pos[i]), up);
          if (swap_needed) {{
            let tk = keys[i]; keys[i] = keys[l]; keys[l] = tk;
            let tp = pos[i]; pos[i] = pos[l]; pos[l] = tp;
          }}
        }}
      }}
      workgroupBarrier();
    }}
  }}
  for (var i = tid; i < p.len; i = i + {SORT_WORKGROUP}u) {{
    let o = base + i * p.pre;
    vals[o] = keys[i];
    idxs[o] = f64(pos[i] + 1u);
  }}
}}
"""
