"""``a \\ b`` for a square ``a``: LU with partial pivoting and the two
triangular solves in one workgroup, in a few dispatches.

The steps are LAPACK's unblocked ``getf2``/``getrs``: at column ``k`` the
first row of largest magnitude is the pivot, rows swap in the matrix and the
right-hand sides, the column below the pivot is divided by it and the
trailing matrix and the right-hand sides take the rank-1 update; then the
upper triangle is solved from the bottom. A zero pivot (the column is zero
from the diagonal down) skips the division, as LAPACK, and sets the
``singular`` flag; the back substitution then yields Inf/NaN. Every step is
parallel over rows or columns inside the workgroup; barriers separate them.
Stage 0 copies the inputs, stage 1 eliminates columns ``k0..k1-1``, stage 2
back-substitutes rows ``k1-1`` down to ``k0``: the hook splits the columns
into dispatches of bounded work (``common.WORK_PER_DISPATCH``), since a single long
dispatch was cut short by the driver (lavapipe, order 270). ``n`` is capped
by the hook (``MAX_N``): the serial depth is n^3 / 256.
"""

from __future__ import annotations

from matfuse.accelerate.providers.wgpu.shaders.common import UniformStruct, step_chunks

MAX_N = 512
WG = 256


def params(n: int, nrhs: int, stage: int, k0: int, k1: int) -> UniformStruct:
    return (UniformStruct().add("n", "u32", n).add("nrhs", "u32", nrhs)
            .add("stage", "u32", stage).add("k0", "u32", k0).add("k1", "u32", k1)
            .add("pad0", "u32", 0).add("pad1", "u32", 0).add("pad2", "u32", 0))


def column_chunks(n: int, nrhs: int) -> list[tuple[int, int]]:
    """[k0, k1) column ranges whose elimination work stays under the bound."""
    return step_chunks(n, lambda k: (0, (n - k) * (n - k + nrhs)))


def render(t: str, uniform: UniformStruct) -> str:
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> a_in: array<{t}>;
@group(0) @binding(1) var<storage, read> b_in: array<{t}>;
@group(0) @binding(2) var<storage, read_write> w: array<{t}>;
@group(0) @binding(3) var<storage, read_write> x: array<{t}>;
@group(0) @binding(4) var<storage, read_write> singular: array<f64>;
@group(0) @binding(5) var<uniform> p: Params;
var<workgroup> pivot_row: u32;

fn sync() {{ storageBarrier(); workgroupBarrier(); }}

@compute @workgroup_size({WG})
fn main(@builtin(local_invocation_index) tid: u32) {{
  let n = p.n;
  let nrhs = p.nrhs;
  if (p.stage == 0u) {{
    for (var e = tid; e < n * n; e = e + {WG}u) {{ w[e] = a_in[e]; }}
    for (var e = tid; e < n * nrhs; e = e + {WG}u) {{ x[e] = b_in[e]; }}
    if (tid == 0u) {{ singular[0] = f64(0.0); }}
    return;
  }}
  if (p.stage == 1u) {{
  for (var k = p.k0; k < p.k1; k = k + 1u) {{
    if (tid == 0u) {{
      var best = k;
      var big = abs(w[k + k * n]);
      for (var i = k + 1u; i < n; i = i + 1u) {{
        let v = abs(w[i + k * n]);
        if (v > big) {{ big = v; best = i; }}
      }}
      pivot_row = best;
      if (big == {t}(0.0)) {{ singular[0] = f64(1.0); }}
    }}
    sync();
    let r = workgroupUniformLoad(&pivot_row);
    if (r != k) {{
      for (var j = tid; j < n; j = j + {WG}u) {{
        let s = w[k + j * n]; w[k + j * n] = w[r + j * n]; w[r + j * n] = s;
      }}
      for (var j = tid; j < nrhs; j = j + {WG}u) {{
        let s = x[k + j * n]; x[k + j * n] = x[r + j * n]; x[r + j * n] = s;
      }}
    }}
    sync();
    let piv = w[k + k * n];
    for (var i = k + 1u + tid; i < n; i = i + {WG}u) {{
      w[i + k * n] = select(w[i + k * n] / piv, w[i + k * n], piv == {t}(0.0));
    }}
    sync();
    let m = n - k - 1u;
    for (var e = tid; e < m * m; e = e + {WG}u) {{
      let i = k + 1u + e % m;
      let j = k + 1u + e / m;
      w[i + j * n] = w[i + j * n] - w[i + k * n] * w[k + j * n];
    }}
    for (var e = tid; e < m * nrhs; e = e + {WG}u) {{
      let i = k + 1u + e % m;
      let j = e / m;
      x[i + j * n] = x[i + j * n] - w[i + k * n] * x[k + j * n];
    }}
    sync();
  }}
  return;
  }}
  for (var kk = p.k0; kk < p.k1; kk = kk + 1u) {{
    let k = p.k1 - 1u - (kk - p.k0);
    for (var j = tid; j < nrhs; j = j + {WG}u) {{ x[k + j * n] = x[k + j * n] / w[k + k * n]; }}
    sync();
    for (var e = tid; e < k * nrhs; e = e + {WG}u) {{
      let i = e % k;
      let j = e / k;
      x[i + j * n] = x[i + j * n] - w[i + k * n] * x[k + j * n];
    }}
    sync();
  }}
}}
"""
