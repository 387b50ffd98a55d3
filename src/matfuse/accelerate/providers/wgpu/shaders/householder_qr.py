"""Householder QR in one workgroup: LAPACK's unblocked ``geqr2`` (the
reflectors) and ``org2r`` (Q from them), so R has LAPACK's signs.

Column ``j``: ``alpha = W(j, j)``, ``x = W(j+1:m, j)``; a zero ``x`` gives
``tau = 0`` (H = I, R(j, j) = alpha); else ``beta = -sign(alpha) *
hypot(alpha, |x|)`` (sign(0) = +), ``tau = (beta - alpha) / beta`` and the
reflector ``v = [1; x / (alpha - beta)]`` is kept below the diagonal, as
``geqrf`` does. The trailing columns take ``c -= tau * (v' c) v``, one
invocation per column. Q starts as the first ``qcols`` columns of I and the
reflectors are applied from the last.

With ``pivot`` (LAPACK ``geqp3``), step ``j`` first swaps in the column of
largest remaining norm over rows ``j..m-1`` (the first on ties), also in
the order ``perm``; the norms are recomputed at each step where LAPACK
downdates them, so only near-ties may pick differently.

Stages (``params.stage``): 0 copies A, sets Q = I and ``perm = 1..n``; 1
reflects columns ``k0..k1-1``; 2 applies reflectors ``k1-1`` down to ``k0`` to Q; 3 writes R
(``rrows`` x n, zeros below the diagonal) and, for the first ``signcols``
columns, multiplies Q's column by the sign of R's diagonal (a matrix with
orthonormal columns then gets those columns back: the SVD's completion of U).
The hook splits stages 1 and 2 into dispatches whose per-invocation loop
trips and total work stay bounded (``column_chunks``).
"""

from __future__ import annotations

from typing import Callable

from matfuse.accelerate.providers.wgpu.shaders.common import UniformStruct, step_chunks

WG = 256


def params(m: int, n: int, qcols: int, rrows: int, signcols: int, stage: int,
           k0: int, k1: int, pivot: int = 0) -> UniformStruct:
    return (UniformStruct().add("m", "u32", m).add("n", "u32", n).add("qcols", "u32", qcols)
            .add("rrows", "u32", rrows).add("signcols", "u32", signcols)
            .add("stage", "u32", stage).add("k0", "u32", k0).add("k1", "u32", k1)
            .add("pivot", "u32", pivot).add("pad0", "u32", 0).add("pad1", "u32", 0)
            .add("pad2", "u32", 0))


def _cost(m: int, j: int, cols: int) -> tuple[int, int]:
    """(loop trips of one invocation, multiply-adds) of one column step that
    touches ``cols`` columns of rows ``j..m-1``."""
    rows = m - j
    trips = 2 * (rows // WG + 1) + 8 + 2 * (cols // WG + 1) * rows + cols
    return trips, rows * max(cols, 1)


def cost(m: int, n: int, qcols: int, rrows: int, signcols: int,
         pivot: bool) -> tuple[int, int]:
    """(most loop trips of one invocation in one dispatch, total
    multiply-adds) of a factorisation: a dispatch holds at least one column
    step (the first the costliest), stages 0 and 3 sweep whole matrices."""
    k = min(m, n)
    reflect = [n - j - 1 + pivot * (n - j) for j in range(k)]
    trips = max(_cost(m, 0, reflect[0] if k else 0)[0], _cost(m, 0, qcols)[0] if qcols else 0,
                (m * n + m * qcols) // WG + n // WG + 3, (rrows * n + m * signcols) // WG + 2)
    work = sum(_cost(m, j, reflect[j])[1] + (_cost(m, j, qcols)[1] if qcols else 0)
               for j in range(k))
    return trips, work


def column_chunks(m: int, k: int, cols_of: Callable[[int], int]) -> list[tuple[int, int]]:
    """[k0, k1) ranges of the columns 0..k-1 whose steps stay under both bounds;
    ``cols_of(j)`` is how many columns step ``j`` updates."""
    return step_chunks(k, lambda j: _cost(m, j, cols_of(j)))


def render(t: str, uniform: UniformStruct) -> str:
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> a_in: array<{t}>;
@group(0) @binding(1) var<storage, read_write> w: array<{t}>;
@group(0) @binding(2) var<storage, read_write> tau: array<{t}>;
@group(0) @binding(3) var<storage, read_write> q: array<{t}>;
@group(0) @binding(4) var<storage, read_write> r_out: array<{t}>;
@group(0) @binding(5) var<storage, read_write> perm: array<u32>;
@group(0) @binding(6) var<storage, read_write> cn: array<{t}>;
@group(0) @binding(7) var<uniform> p: Params;
var<workgroup> part: array<{t}, {WG}>;
var<workgroup> scale: {t};
var<workgroup> pivot_col: u32;

fn pivot_column(j: u32, tid: u32) {{
  let m = p.m;
  let n = p.n;
  for (var c = j + tid; c < n; c = c + {WG}u) {{
    var acc = {t}(0.0);
    for (var i = j; i < m; i = i + 1u) {{ acc = acc + w[i + c * m] * w[i + c * m]; }}
    cn[c] = acc;
  }}
  sync();
  if (tid == 0u) {{
    var best = j;
    var big = cn[j];
    for (var c = j + 1u; c < n; c = c + 1u) {{
      if (cn[c] > big) {{ big = cn[c]; best = c; }}
    }}
    pivot_col = best;
  }}
  sync();
  let r = workgroupUniformLoad(&pivot_col);
  if (r != j) {{
    for (var i = tid; i < m; i = i + {WG}u) {{
      let s = w[i + j * m]; w[i + j * m] = w[i + r * m]; w[i + r * m] = s;
    }}
    if (tid == 0u) {{ let s = perm[j]; perm[j] = perm[r]; perm[r] = s; }}
  }}
  sync();
}}

fn sync() {{ storageBarrier(); workgroupBarrier(); }}

fn reflect_column(j: u32, tid: u32) {{
  let m = p.m;
  let n = p.n;
  var acc = {t}(0.0);
  for (var i = j + 1u + tid; i < m; i = i + {WG}u) {{ acc = acc + w[i + j * m] * w[i + j * m]; }}
  part[tid] = acc;
  sync();
  for (var half = {WG // 2}u; half > 0u; half = half >> 1u) {{
    if (tid < half) {{ part[tid] = part[tid] + part[tid + half]; }}
    sync();
  }}
  if (tid == 0u) {{
    let xnorm2 = part[0];
    let alpha = w[j + j * m];
    if (xnorm2 == {t}(0.0)) {{
      tau[j] = {t}(0.0);
      scale = {t}(0.0);
    }} else {{
      var beta = sqrt(alpha * alpha + xnorm2);
      if (alpha >= {t}(0.0)) {{ beta = -beta; }}
      tau[j] = (beta - alpha) / beta;
      scale = {t}(1.0) / (alpha - beta);
      w[j + j * m] = beta;
    }}
  }}
  sync();
  let sc = workgroupUniformLoad(&scale);
  if (sc != {t}(0.0)) {{
    for (var i = j + 1u + tid; i < m; i = i + {WG}u) {{ w[i + j * m] = w[i + j * m] * sc; }}
    sync();
    let tj = tau[j];
    for (var c = j + 1u + tid; c < n; c = c + {WG}u) {{
      var d = w[j + c * m];
      for (var i = j + 1u; i < m; i = i + 1u) {{ d = d + w[i + j * m] * w[i + c * m]; }}
      d = d * tj;
      w[j + c * m] = w[j + c * m] - d;
      for (var i = j + 1u; i < m; i = i + 1u) {{ w[i + c * m] = w[i + c * m] - d * w[i + j * m]; }}
    }}
  }}
  sync();
}}

fn apply_to_q(j: u32, tid: u32) {{
  let m = p.m;
  let tj = tau[j];
  if (tj != {t}(0.0)) {{
    for (var c = tid; c < p.qcols; c = c + {WG}u) {{
      var d = q[j + c * m];
      for (var i = j + 1u; i < m; i = i + 1u) {{ d = d + w[i + j * m] * q[i + c * m]; }}
      d = d * tj;
      q[j + c * m] = q[j + c * m] - d;
      for (var i = j + 1u; i < m; i = i + 1u) {{ q[i + c * m] = q[i + c * m] - d * w[i + j * m]; }}
    }}
  }}
  sync();
}}

@compute @workgroup_size({WG})
fn main(@builtin(local_invocation_index) tid: u32) {{
  let m = p.m;
  let n = p.n;
  if (p.stage == 0u) {{
    for (var e = tid; e < m * n; e = e + {WG}u) {{ w[e] = a_in[e]; }}
    for (var e = tid; e < m * p.qcols; e = e + {WG}u) {{
      q[e] = select({t}(0.0), {t}(1.0), e % m == e / m);
    }}
    if (p.pivot != 0u) {{
      for (var c = tid; c < n; c = c + {WG}u) {{ perm[c] = c + 1u; }}
    }}
    return;
  }}
  if (p.stage == 1u) {{
    for (var j = p.k0; j < p.k1; j = j + 1u) {{
      if (p.pivot != 0u) {{ pivot_column(j, tid); }}
      reflect_column(j, tid);
    }}
    return;
  }}
  if (p.stage == 2u) {{
    for (var jj = p.k0; jj < p.k1; jj = jj + 1u) {{ apply_to_q(p.k1 - 1u - (jj - p.k0), tid); }}
    return;
  }}
  for (var e = tid; e < p.rrows * n; e = e + {WG}u) {{
    let i = e % p.rrows;
    let c = e / p.rrows;
    r_out[e] = select({t}(0.0), w[i + c * m], i <= c);
  }}
  for (var e = tid; e < m * p.signcols; e = e + {WG}u) {{
    let c = e / m;
    if (w[c + c * m] < {t}(0.0)) {{ q[e] = -q[e]; }}
  }}
}}
"""
