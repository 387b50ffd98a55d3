"""LU with partial pivoting of an m x n matrix in one workgroup: LAPACK's
unblocked ``getf2``, the packed factors and the row order.

At column ``k`` the first row of largest magnitude at or below the diagonal
is the pivot (LAPACK's ``idamax``); rows ``k`` and the pivot swap across the
whole matrix and in the row order, the column below the pivot is divided by
it (skipped for a zero pivot, as LAPACK) and the trailing block takes the
rank-1 update. Stage 0 copies A and writes the order ``1..m``; stage 1
eliminates columns ``k0..k1-1``; the hook splits the columns into
dispatches of bounded loop trips and work (``column_chunks``).
"""

from __future__ import annotations

from matfuse.accelerate.providers.wgpu.shaders.common import UniformStruct, step_chunks

WG = 256


def params(m: int, n: int, stage: int, k0: int, k1: int) -> UniformStruct:
    return (UniformStruct().add("m", "u32", m).add("n", "u32", n).add("stage", "u32", stage)
            .add("k0", "u32", k0).add("k1", "u32", k1)
            .add("pad0", "u32", 0).add("pad1", "u32", 0).add("pad2", "u32", 0))


def _column_cost(m: int, n: int, k: int) -> tuple[int, int]:
    """(loop trips of one invocation, multiply-adds) of eliminating column ``k``."""
    rows, cols = m - k, n - k
    return rows + 2 * (n // WG + 1) + rows // WG + 1 + (rows * cols) // WG + 1, rows * cols + n


def cost(m: int, n: int) -> tuple[int, int]:
    """(most loop trips of one invocation in one dispatch, total
    multiply-adds): a dispatch holds at least one column, the first the
    costliest, and stage 0 copies the matrix."""
    work = sum(_column_cost(m, n, k)[1] for k in range(min(m, n)))
    return max(_column_cost(m, n, 0)[0], (m * n) // WG + m // WG + 2), work


def column_chunks(m: int, n: int) -> list[tuple[int, int]]:
    """[k0, k1) ranges of the min(m, n) columns whose steps stay under both bounds."""
    return step_chunks(min(m, n), lambda k: _column_cost(m, n, k))


def render(t: str, uniform: UniformStruct) -> str:
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> a_in: array<{t}>;
@group(0) @binding(1) var<storage, read_write> w: array<{t}>;
@group(0) @binding(2) var<storage, read_write> rows: array<f64>;
@group(0) @binding(3) var<uniform> p: Params;
var<workgroup> pivot_row: u32;

fn sync() {{ storageBarrier(); workgroupBarrier(); }}

@compute @workgroup_size({WG})
fn main(@builtin(local_invocation_index) tid: u32) {{
  let m = p.m;
  let n = p.n;
  if (p.stage == 0u) {{
    for (var e = tid; e < m * n; e = e + {WG}u) {{ w[e] = a_in[e]; }}
    for (var i = tid; i < m; i = i + {WG}u) {{ rows[i] = f64(i + 1u); }}
    return;
  }}
  for (var k = p.k0; k < p.k1; k = k + 1u) {{
    if (tid == 0u) {{
      var best = k;
      var big = abs(w[k + k * m]);
      for (var i = k + 1u; i < m; i = i + 1u) {{
        let v = abs(w[i + k * m]);
        if (v > big) {{ big = v; best = i; }}
      }}
      pivot_row = best;
    }}
    sync();
    let r = workgroupUniformLoad(&pivot_row);
    if (r != k) {{
      for (var j = tid; j < n; j = j + {WG}u) {{
        let s = w[k + j * m]; w[k + j * m] = w[r + j * m]; w[r + j * m] = s;
      }}
      if (tid == 0u) {{ let s = rows[k]; rows[k] = rows[r]; rows[r] = s; }}
    }}
    sync();
    let piv = w[k + k * m];
    if (piv != {t}(0.0)) {{
      for (var i = k + 1u + tid; i < m; i = i + {WG}u) {{ w[i + k * m] = w[i + k * m] / piv; }}
    }}
    sync();
    let mr = m - k - 1u;
    let nc = n - k - 1u;
    for (var e = tid; e < mr * nc; e = e + {WG}u) {{
      let i = k + 1u + e % mr;
      let j = k + 1u + e / mr;
      w[i + j * m] = w[i + j * m] - w[i + k * m] * w[k + j * m];
    }}
    sync();
  }}
}}
"""
