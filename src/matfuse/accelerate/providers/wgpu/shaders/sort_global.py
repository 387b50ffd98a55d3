"""Stable sort of lines longer than one workgroup can hold: a bitonic network
over device memory, one dispatch per compare-exchange stage.

Each line is padded to a power of two ``P`` (padding sorts last); the keys
and original positions live in scratch buffers of ``nlines * P`` elements.
``render_load`` fills them, ``render_stage`` runs the stage ``(k, j)`` of the
network on every line at once (``log2(P) * (log2(P) + 1) / 2`` stages), and
``render_store`` writes values and 1-based indices back in the input's
layout. Comparisons are the workgroup sort's (``sort.py``): NaN last
ascending and first descending, ties broken by the original position, so
the result is stable and equal to the host's.
"""

from __future__ import annotations

from matfuse.accelerate.providers.wgpu.shaders.common import UniformStruct


def params(pre: int, length: int, nlines: int, padded: int, k: int = 0,
           j: int = 0) -> UniformStruct:
    return (UniformStruct().add("pre", "u32", pre).add("len", "u32", length)
            .add("nlines", "u32", nlines).add("padded", "u32", padded)
            .add("k", "u32", k).add("j", "u32", j)
            .add("total", "u32", nlines * padded).add("pad", "u32", 0))


def _before(t: str, descending: bool) -> str:
    value_order = "a > b" if descending else "a < b"
    nan_first = "true" if descending else "false"
    return f"""
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
"""


def render_load(t: str, uniform: UniformStruct) -> str:
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> in0: array<{t}>;
@group(0) @binding(1) var<storage, read_write> keys: array<{t}>;
@group(0) @binding(2) var<storage, read_write> pos: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {{
  for (var g = gid.x; g < p.total; g = g + nwg.x * 256u) {{
    let line = g / p.padded;
    let i = g % p.padded;
    pos[g] = i;
    if (i < p.len) {{
      let base = (line % p.pre) + (line / p.pre) * p.pre * p.len;
      keys[g] = in0[base + i * p.pre];
    }} else {{
      keys[g] = {t}(0);
    }}
  }}
}}
"""


def render_stage(t: str, descending: bool, uniform: UniformStruct) -> str:
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read_write> keys: array<{t}>;
@group(0) @binding(1) var<storage, read_write> pos: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;
{_before(t, descending)}
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {{
  for (var g = gid.x; g < p.total; g = g + nwg.x * 256u) {{
    let i = g % p.padded;
    let l = i ^ p.j;
    if (l > i) {{
      let h = g - i + l;
      let up = (i & p.k) == 0u;
      let ki = keys[g]; let pi = pos[g];
      let kl = keys[h]; let pl = pos[h];
      let swap_needed = select(before(ki, pi, kl, pl), before(kl, pl, ki, pi), up);
      if (swap_needed) {{
        keys[g] = kl; keys[h] = ki;
        pos[g] = pl; pos[h] = pi;
      }}
    }}
  }}
}}
"""


def render_store(t: str, uniform: UniformStruct) -> str:
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> keys: array<{t}>;
@group(0) @binding(1) var<storage, read> pos: array<u32>;
@group(0) @binding(2) var<storage, read_write> vals: array<{t}>;
@group(0) @binding(3) var<storage, read_write> idxs: array<f64>;
@group(0) @binding(4) var<uniform> p: Params;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {{
  let n = p.nlines * p.len;
  for (var g = gid.x; g < n; g = g + nwg.x * 256u) {{
    let line = g / p.len;
    let i = g % p.len;
    let o = (line % p.pre) + (line / p.pre) * p.pre * p.len + i * p.pre;
    let s = line * p.padded + i;
    vals[o] = keys[s];
    idxs[o] = f64(pos[s] + 1u);
  }}
}}
"""
