"""Cumulative scans (cumsum cumprod cummax cummin) along one axis.

One thread per line (``pre * post`` lines) walks its line sequentially:
simple and exact in order (no reassociation, so results match the host
bit for bit for sums). Long single lines are the slow case; a decoupled
look-back scan would fix that when profiles ask for it.

A dispatch walks steps ``k0 .. k0+steps-1`` of every line and carries the
running value in from the element stored before ``k0``: long lines run as
several dispatches so that no invocation loops more often than the adapter
allows (``DeviceContext.max_loop_iterations``). The running value is
re-read from what was stored, so integer scans saturate at every step as
MATLAB's do (``cumsum(int8([100 100 -100]))`` is ``[100 127 27]``).
"""

from __future__ import annotations

from matfuse.accelerate_api import Unsupported
from matfuse.accelerate.providers.wgpu.shaders.common import STORAGE_TYPE, UniformStruct
from matfuse.accelerate.providers.wgpu.shaders.elementwise import _helpers, store_expr

SCAN_OPS = {"cumsum": "acc + x", "cumprod": "acc * x",
            # MATLAB's default 'omitnan': NaN only until the first number
            "cummax": "mfx_max(acc, x)", "cummin": "mfx_min(acc, x)"}


def params(pre: int, length: int, post: int, k0: int = 0, steps: int | None = None) -> UniformStruct:
    """Uniform of one dispatch: steps ``k0 .. k0+steps-1`` of each line."""
    steps = length - k0 if steps is None else steps
    return (UniformStruct().add("pre", "u32", pre).add("len", "u32", length)
            .add("post", "u32", post).add("nlines", "u32", pre * post)
            .add("k0", "u32", k0).add("kend", "u32", min(length, k0 + steps)))


def step_ranges(length: int, max_steps: int) -> list[tuple[int, int]]:
    """(k0, steps) of the dispatches that scan lines of ``length``."""
    step = max(1, int(max_steps))
    return [(k0, min(step, length - k0)) for k0 in range(0, length, step)]


def render(op: str, in_dtype: str, out_dtype: str, reverse: bool, uniform: UniformStruct) -> str:
    if op not in SCAN_OPS:
        raise Unsupported(f"wgpu: scan {op}")
    t = "f32" if out_dtype == "float32" else "f64"
    it, ot = STORAGE_TYPE[in_dtype], STORAGE_TYPE[out_dtype]
    r_of = "(p.len - 1u - k)" if reverse else "k"
    return _helpers(t) + uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> in0: array<{it}>;
@group(0) @binding(1) var<storage, read_write> out0: array<{ot}>;
@group(0) @binding(2) var<uniform> p: Params;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {{
  let stride = nwg.x * 256u;
  for (var line = gid.x; line < p.nlines; line = line + stride) {{
    let pp = line % p.pre; let q = line / p.pre;
    let base = pp + q * p.pre * p.len;
    var acc = T(0);
    if (p.k0 > 0u) {{
      let k = p.k0 - 1u;
      acc = T(out0[base + {r_of} * p.pre]);
    }}
    for (var k = p.k0; k < p.kend; k = k + 1u) {{
      let idx = base + {r_of} * p.pre;
      let x = T(in0[idx]);
      if (k == 0u) {{ acc = x; }} else {{ acc = {SCAN_OPS[op]}; }}
      out0[idx] = {store_expr("acc", t, out_dtype)};
      acc = T(out0[idx]);
    }}
  }}
}}
"""
