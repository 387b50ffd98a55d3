"""Signal kernels: polyval (Horner), conv1d and conv2d (direct convolution), filter.

One thread per output element, grid-striding past the dispatch cap. Both use
only + and *, so f64 needs none of the drivers' transcendentals.
"""

from __future__ import annotations

from matfuse.accelerate.providers.wgpu.shaders.common import UniformStruct

_HEAD = """@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let stride = nwg.x * 256u;
"""


def polyval_params(n_coeffs: int, n_points: int) -> UniformStruct:
    return UniformStruct().add("np", "u32", n_coeffs).add("n", "u32", n_points)


def render_polyval(t: str, uniform: UniformStruct) -> str:
    """``out[i] = ((p0*x + p1)*x + ...)`` with p highest power first, as MATLAB."""
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> coeffs: array<{t}>;
@group(0) @binding(1) var<storage, read> xs: array<{t}>;
@group(0) @binding(2) var<storage, read_write> out0: array<{t}>;
@group(0) @binding(3) var<uniform> p: Params;
{_HEAD}  for (var i = gid.x; i < p.n; i = i + stride) {{
    let x = xs[i];
    var acc = {t}(0);
    for (var k = 0u; k < p.np; k = k + 1u) {{ acc = acc * x + coeffs[k]; }}
    out0[i] = acc;
  }}
}}
"""


def conv_params(nu: int, nv: int, n_out: int, offset: int) -> UniformStruct:
    return (UniformStruct().add("nu", "u32", nu).add("nv", "u32", nv)
            .add("n", "u32", n_out).add("offset", "u32", offset))


def render_conv1d(t: str, uniform: UniformStruct) -> str:
    """``out[i] = full[i + offset]``, ``full[k] = sum_j u[j] * v[k - j]``;
    summed in increasing j like a direct host loop."""
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> u: array<{t}>;
@group(0) @binding(1) var<storage, read> v: array<{t}>;
@group(0) @binding(2) var<storage, read_write> out0: array<{t}>;
@group(0) @binding(3) var<uniform> p: Params;
{_HEAD}  for (var i = gid.x; i < p.n; i = i + stride) {{
    let k = i + p.offset;
    var lo = 0u;
    if (k + 1u > p.nv) {{ lo = k + 1u - p.nv; }}
    let hi = min(k, p.nu - 1u);
    var acc = {t}(0);
    for (var j = lo; j <= hi; j = j + 1u) {{ acc = acc + u[j] * v[k - j]; }}
    out0[i] = acc;
  }}
}}
"""



def conv2d_params(a_rows: int, a_cols: int, b_rows: int, b_cols: int, out_rows: int,
                  out_cols: int, row0: int, col0: int) -> UniformStruct:
    """Shapes of A, B and the output; (row0, col0) is where the output starts
    inside the 'full' result (0 for full, floor(size(B)/2) for same...)."""
    return (UniformStruct().add("ar", "u32", a_rows).add("ac", "u32", a_cols)
            .add("br", "u32", b_rows).add("bc", "u32", b_cols)
            .add("n", "u32", out_rows * out_cols).add("orows", "u32", out_rows)
            .add("row0", "u32", row0).add("col0", "u32", col0))


def render_conv2d(t: str, uniform: UniformStruct) -> str:
    """``out(i, j) = full(i + row0, j + col0)`` with ``full(r, c) = sum_{p,q}
    A(p, q) * B(r - p, c - q)``: one thread per output, taps read from the
    B buffer; only + and * (no driver f64 builtins)."""
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> amat: array<{t}>;
@group(0) @binding(1) var<storage, read> bmat: array<{t}>;
@group(0) @binding(2) var<storage, read_write> out0: array<{t}>;
@group(0) @binding(3) var<uniform> p: Params;
{_HEAD}  for (var i = gid.x; i < p.n; i = i + stride) {{
    let r = i % p.orows + p.row0;
    let c = i / p.orows + p.col0;
    var plo = 0u;
    if (r + 1u > p.br) {{ plo = r + 1u - p.br; }}
    let phi = min(r, p.ar - 1u);
    var qlo = 0u;
    if (c + 1u > p.bc) {{ qlo = c + 1u - p.bc; }}
    let qhi = min(c, p.ac - 1u);
    var acc = {t}(0);
    for (var q = qlo; q <= qhi; q = q + 1u) {{
      let acol = q * p.ar;
      let bcol = (c - q) * p.br;
      for (var k = plo; k <= phi; k = k + 1u) {{
        acc = acc + amat[acol + k] * bmat[bcol + r - k];
      }}
    }}
    out0[i] = acc;
  }}
}}
"""

def render_fir(t: str, uniform: UniformStruct) -> str:
    """``filter(b, a0, x)`` with a scalar ``a``: one thread per output,
    ``y(n) = sum_{k <= min(n, nb-1)} (b(k)/a0) * x(n-k)`` along the line.
    Only the taps that exist are read, so a NaN or Inf input reaches the
    ``nb`` outputs MATLAB's filter gives it to and no others."""
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> bcoef: array<{t}>;
@group(0) @binding(1) var<storage, read> acoef: array<{t}>;
@group(0) @binding(2) var<storage, read> xs: array<{t}>;
@group(0) @binding(3) var<storage, read_write> out0: array<{t}>;
@group(0) @binding(4) var<uniform> p: Params;
{_HEAD}  let total = p.nlines * p.len;
  for (var i = gid.x; i < total; i = i + stride) {{
    let lo = i % p.pre;
    let n = (i / p.pre) % p.len;
    let hi = i / (p.pre * p.len);
    let base = lo + hi * p.pre * p.len;
    let a0 = acoef[0];
    var acc = {t}(0);
    let last = min(n, p.nb - 1u);
    for (var k = 0u; k <= last; k = k + 1u) {{
      acc = acc + (bcoef[k] / a0) * xs[base + (n - k) * p.pre];
    }}
    out0[i] = acc;
  }}
}}
"""


#: the recursive (IIR) kernel runs one thread per line: lines longer than
#: this (times the taps) stay on the host. Lavapipe stopped such threads
#: after about 6e4 inner iterations (outputs left at 0), and on a GPU a
#: handful of serial threads is slower than the host anyway.
IIR_MAX_WORK = 32768

#: longest filter (max(numel(b), numel(a))) whose state fits the per-thread array
FILTER_MAX_TAPS = 64


def filter_params(nb: int, na: int, pre: int, length: int, post: int) -> UniformStruct:
    return (UniformStruct().add("nb", "u32", nb).add("na", "u32", na).add("pre", "u32", pre)
            .add("len", "u32", length).add("post", "u32", post).add("nlines", "u32", pre * post)
            .add("taps", "u32", max(nb, na)))


def render_filter(t: str, uniform: UniformStruct) -> str:
    """MATLAB's filter: direct-form II transposed, one thread per line, with
    b and a normalised by a(1) inside the kernel."""
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> bcoef: array<{t}>;
@group(0) @binding(1) var<storage, read> acoef: array<{t}>;
@group(0) @binding(2) var<storage, read> xs: array<{t}>;
@group(0) @binding(3) var<storage, read_write> out0: array<{t}>;
@group(0) @binding(4) var<uniform> p: Params;
fn bk(k: u32) -> {t} {{ if (k < p.nb) {{ return bcoef[k] / acoef[0]; }} return {t}(0); }}
fn ak(k: u32) -> {t} {{ if (k < p.na) {{ return acoef[k] / acoef[0]; }} return {t}(0); }}
{_HEAD}  for (var line = gid.x; line < p.nlines; line = line + stride) {{
    let base = (line % p.pre) + (line / p.pre) * p.pre * p.len;
    var z: array<{t}, {FILTER_MAX_TAPS}>;
    for (var k = 0u; k < p.taps; k = k + 1u) {{ z[k] = {t}(0); }}
    for (var n = 0u; n < p.len; n = n + 1u) {{
      let idx = base + n * p.pre;
      let x = xs[idx];
      let y = bk(0u) * x + z[0];
      for (var k = 1u; k < p.taps; k = k + 1u) {{
        // Terms past numel(b) / numel(a) are absent, not zero: a NaN must not
        // leak through 0 * NaN (MATLAB's FIR filter recovers after a NaN).
        var zk = {t}(0);
        if (k + 1u < p.taps) {{ zk = z[k]; }}
        if (k < p.nb) {{ zk = zk + bk(k) * x; }}
        if (k < p.na) {{ zk = zk - ak(k) * y; }}
        z[k - 1u] = zk;
      }}
      out0[idx] = y;
    }}
  }}
}}
"""
