"""One-sided Jacobi SVD (Hestenes) of a tall m x n matrix (m >= n).

The columns of W (a copy of A) are rotated pairwise until every pair is
orthogonal to working precision; the rotations accumulate in V (n x n, from
I). Then ``sigma_j = |W(:, j)|``, ``U(:, j) = W(:, j) / sigma_j`` and
``A = U diag(sigma) V'``.

One ``sweep`` dispatch per round of the round-robin ordering: round ``t``
pairs the columns ``(arr[i], arr[n2-1-i])`` with ``arr[0] = 0`` and
``arr[j] = 1 + (j - 1 + t) mod (n2 - 1)`` (``n2`` = n rounded up to even;
a pair naming column ``n`` is idle), so a sweep of ``n2 - 1`` rounds meets
every pair once and the pairs of one round are independent: one workgroup
each. A workgroup sums ``alpha = |w_p|^2``, ``beta = |w_q|^2`` and ``gamma
= w_p . w_q`` and rotates when ``|gamma| > tol * sqrt(alpha * beta)``
(``tol = sqrt(m) * eps``, LAPACK ``gesvj``'s), with Rutishauser's angle:
``zeta = (beta - alpha) / (2 gamma)``, ``t = sign(zeta) / (|zeta| +
sqrt(1 + zeta^2))``, ``c = 1 / sqrt(1 + t^2)``, ``s = c t``. A rotation
sets ``flags[sweep]``; every dispatch of a later sweep returns at once when
the sweep before it rotated nothing (converged), so the hook may record a
few sweeps past convergence and read one flag now and then.

``finish`` stages: ``norms`` (one workgroup per column: ``sigma_j``),
``order`` (one invocation per column: its rank in descending order, ties by
column) and ``scatter`` (one invocation per element: s, U and V in that
order; U's column is 0 where ``sigma_j = 0``, the hook completes it).
"""

from __future__ import annotations

from matfuse.accelerate.providers.wgpu.shaders.common import UniformStruct

WG = 256
MAX_SWEEPS = 40


def trips(m: int, n: int) -> int:
    """Most loop trips of one invocation in one dispatch (a sweep round's
    sums and rotations, the ordering's scan of the n norms)."""
    wg = sweep_workgroup(m)
    return max(3 * (m // wg + 1) + 8 + 2 * (n // wg + 1), n + 1)


def params(m: int, n: int, n2: int, round_: int, sweep: int, with_v: int,
           tol: float, t: str) -> UniformStruct:
    return (UniformStruct().add("m", "u32", m).add("n", "u32", n).add("n2", "u32", n2)
            .add("round", "u32", round_).add("sweep", "u32", sweep).add("with_v", "u32", with_v)
            .add("pad0", "u32", 0).add("pad1", "u32", 0).add("tol", t, tol))


def sweep_workgroup(m: int) -> int:
    """Invocations of a sweep's workgroup: 32 (one warp) for columns up to
    2048 rows, where fewer invocations wait at each barrier, 256 for longer
    ones."""
    return 32 if m <= 2048 else 256


def render_sweep(t: str, uniform: UniformStruct, wg: int) -> str:
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read_write> w: array<{t}>;
@group(0) @binding(1) var<storage, read_write> v: array<{t}>;
@group(0) @binding(2) var<storage, read_write> flags: array<atomic<u32>>;
@group(0) @binding(3) var<uniform> p: Params;
var<workgroup> pa: array<{t}, {wg}>;
var<workgroup> pb: array<{t}, {wg}>;
var<workgroup> pg: array<{t}, {wg}>;
var<workgroup> go: u32;
var<workgroup> rot_c: {t};
var<workgroup> rot_s: {t};

fn slot(j: u32) -> u32 {{
  if (j == 0u) {{ return 0u; }}
  return 1u + (j - 1u + p.round) % (p.n2 - 1u);
}}

@compute @workgroup_size({wg})
fn main(@builtin(local_invocation_index) tid: u32, @builtin(workgroup_id) wid: vec3<u32>) {{
  let m = p.m;
  let n = p.n;
  let col_p = slot(wid.x);
  let col_q = slot(p.n2 - 1u - wid.x);
  if (tid == 0u) {{
    var live = 1u;
    if (p.sweep > 0u && atomicLoad(&flags[p.sweep - 1u]) == 0u) {{ live = 0u; }}
    if (col_p >= n || col_q >= n) {{ live = 0u; }}
    go = live;
  }}
  if (workgroupUniformLoad(&go) == 0u) {{ return; }}
  let lo = min(col_p, col_q);
  let hi = max(col_p, col_q);
  var a = {t}(0.0);
  var b = {t}(0.0);
  var g = {t}(0.0);
  for (var i = tid; i < m; i = i + {wg}u) {{
    let x = w[i + lo * m];
    let y = w[i + hi * m];
    a = a + x * x;
    b = b + y * y;
    g = g + x * y;
  }}
  pa[tid] = a;
  pb[tid] = b;
  pg[tid] = g;
  workgroupBarrier();
  for (var half = {wg // 2}u; half > 0u; half = half >> 1u) {{
    if (tid < half) {{
      pa[tid] = pa[tid] + pa[tid + half];
      pb[tid] = pb[tid] + pb[tid + half];
      pg[tid] = pg[tid] + pg[tid + half];
    }}
    workgroupBarrier();
  }}
  if (tid == 0u) {{
    let alpha = pa[0];
    let beta = pb[0];
    let gamma = pg[0];
    var rotate = 0u;
    if (gamma != {t}(0.0) && abs(gamma) > p.tol * sqrt(alpha) * sqrt(beta)) {{
      rotate = 1u;
      let zeta = (beta - alpha) / ({t}(2.0) * gamma);
      let az = abs(zeta);
      var root = sqrt({t}(1.0) + az * az);
      if (az > {t}(1.0)) {{ root = az * sqrt({t}(1.0) + ({t}(1.0) / az) / az); }}
      var tn = {t}(1.0) / (az + root);
      if (zeta < {t}(0.0)) {{ tn = -tn; }}
      let c = {t}(1.0) / sqrt({t}(1.0) + tn * tn);
      rot_c = c;
      rot_s = c * tn;
      atomicStore(&flags[p.sweep], 1u);
    }}
    go = rotate;
  }}
  if (workgroupUniformLoad(&go) == 0u) {{ return; }}
  let c = rot_c;
  let s = rot_s;
  for (var i = tid; i < m; i = i + {wg}u) {{
    let x = w[i + lo * m];
    let y = w[i + hi * m];
    w[i + lo * m] = c * x - s * y;
    w[i + hi * m] = s * x + c * y;
  }}
  if (p.with_v != 0u) {{
    for (var i = tid; i < n; i = i + {wg}u) {{
      let x = v[i + lo * n];
      let y = v[i + hi * n];
      v[i + lo * n] = c * x - s * y;
      v[i + hi * n] = s * x + c * y;
    }}
  }}
}}
"""


def render_finish(t: str, uniform: UniformStruct) -> str:
    """Entry points ``norms``, ``order`` and ``scatter`` (see the module doc);
    ``v`` is read only when ``with_v``."""
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> w: array<{t}>;
@group(0) @binding(1) var<storage, read> v: array<{t}>;
@group(0) @binding(2) var<storage, read_write> sig: array<{t}>;
@group(0) @binding(3) var<storage, read_write> pos: array<u32>;
@group(0) @binding(4) var<storage, read_write> s_out: array<{t}>;
@group(0) @binding(5) var<storage, read_write> u_out: array<{t}>;
@group(0) @binding(6) var<storage, read_write> v_out: array<{t}>;
@group(0) @binding(7) var<uniform> p: Params;
var<workgroup> part: array<{t}, {WG}>;

@compute @workgroup_size({WG})
fn norms(@builtin(local_invocation_index) tid: u32, @builtin(workgroup_id) wid: vec3<u32>) {{
  let m = p.m;
  let j = wid.x;
  var acc = {t}(0.0);
  for (var i = tid; i < m; i = i + {WG}u) {{ acc = acc + w[i + j * m] * w[i + j * m]; }}
  part[tid] = acc;
  workgroupBarrier();
  for (var half = {WG // 2}u; half > 0u; half = half >> 1u) {{
    if (tid < half) {{ part[tid] = part[tid] + part[tid + half]; }}
    workgroupBarrier();
  }}
  if (tid == 0u) {{ sig[j] = sqrt(part[0]); }}
}}

@compute @workgroup_size({WG})
fn order(@builtin(global_invocation_id) gid: vec3<u32>) {{
  let j = gid.x;
  if (j >= p.n) {{ return; }}
  let mine = sig[j];
  var rank = 0u;
  for (var i = 0u; i < p.n; i = i + 1u) {{
    let other = sig[i];
    if (other > mine || (other == mine && i < j)) {{ rank = rank + 1u; }}
  }}
  pos[j] = rank;
}}

@compute @workgroup_size({WG})
fn scatter(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {{
  let m = p.m;
  let n = p.n;
  let e = gid.x + gid.y * nwg.x * {WG}u;
  if (e < m * n) {{
    let j = e / m;
    let sj = sig[j];
    var x = {t}(0.0);
    if (sj > {t}(0.0)) {{ x = w[e] / sj; }}
    u_out[e % m + pos[j] * m] = x;
    if (e % m == 0u) {{ s_out[pos[j]] = sj; }}
  }}
  if (p.with_v != 0u && e < n * n) {{
    let j = e / n;
    v_out[e % n + pos[j] * n] = v[e];
  }}
}}
"""
