"""Reductions over one (pre, R, post) axis: sum prod mean min max any all nnz,
and max/min with index.

The tensor is viewed as ``pre x R x post`` (column-major); output ``o = p +
q*pre`` reduces ``x[p + r*pre + q*pre*R]`` over r. Two kernel shapes:

* thread-per-output (``pre`` large: neighbouring threads read neighbouring
  elements, coalesced);
* workgroup-per-(output, chunk): 256 threads stride over a chunk of R and
  tree-reduce in workgroup memory. Long reductions use several chunks per
  output and a second pass over the partials (two-pass).

The first pass maps inputs (``x != 0`` for any/all/nnz, NaN skipping for
omitnan); later passes combine accumulators; the final pass divides for
mean and converts to the output dtype.
"""

from __future__ import annotations

from dataclasses import dataclass

from matfuse.accelerate_api import Unsupported
from matfuse.accelerate.providers.wgpu.shaders.common import STORAGE_TYPE, UniformStruct
from matfuse.accelerate.providers.wgpu.shaders.elementwise import _helpers, store_expr

REDUCE_OPS = ("sum", "prod", "mean", "min", "max", "any", "all", "nnz")
#: internal: number of non-NaN elements (for mean with omitnan)
COUNT_OP = "notnan"


@dataclass(frozen=True)
class ReduceSpec:
    op: str
    in_dtype: str       # storage dtype of this pass's input
    acc: str            # accumulator WGSL type: f32 f64 u32
    first: bool         # apply the input map
    final: bool         # finalize into out_dtype (else store raw accumulator)
    out_dtype: str
    omitnan: bool
    per_thread: bool


def accumulator(op: str, in_dtype: str, out_dtype: str) -> str:
    if op in ("any", "all", "nnz", COUNT_OP):
        return "u32"
    if op in ("min", "max"):
        return "f32" if in_dtype in ("float32", "bool") else "f64"
    return "f32" if in_dtype in ("float32", "bool") and out_dtype == "float32" else "f64"


def acc_dtype(acc: str) -> str:
    return {"f32": "float32", "f64": "float64", "u32": "uint32"}[acc]


def _pieces(spec: ReduceSpec) -> tuple[str, str, str]:
    """(identity, map(x) over A, combine(a, b)) as WGSL."""
    op, nan = spec.op, spec.omitnan
    if op == COUNT_OP:
        return "0u", "select(1u, 0u, mfx_isnan(T(x)))", "a + b"
    if op in ("any", "all", "nnz"):
        ident = "1u" if op == "all" else "0u"
        comb = {"any": "max(a, b)", "all": "min(a, b)", "nnz": "a + b"}[op]
        # any/all ignore NaN (MATLAB: any([0 NaN]) is false, all(NaN) true);
        # nnz counts it
        nonzero = {"any": "!(T(x) == T(0)) && !mfx_isnan(T(x))",
                   "all": "!(T(x) == T(0)) || mfx_isnan(T(x))", "nnz": "!(T(x) == T(0))"}[op]
        return ident, f"select(0u, 1u, {nonzero})", comb
    if op in ("sum", "mean"):
        return "A(0)", "select(A(x), A(0), mfx_isnan(T(x)))" if nan else "A(x)", "a + b"
    if op == "prod":
        return "A(1)", "select(A(x), A(1), mfx_isnan(T(x)))" if nan else "A(x)", "a * b"
    f = op
    if nan:
        return "A(mfx_nan())", "A(x)", f"mfx_{f}(a, b)"
    inf = "A(-mfx_inf())" if op == "max" else "A(mfx_inf())"
    return inf, "A(x)", f"select({f}(a, b), a + b, mfx_isnan(a) || mfx_isnan(b))"


def render(spec: ReduceSpec, uniform: UniformStruct) -> str:
    ident, mapping, comb = _pieces(spec)
    if not spec.first:
        mapping = "A(x)" if spec.acc != "u32" else "x"
    t = "f32" if spec.acc == "f32" else "f64"
    if spec.acc == "u32":
        t = "f32" if spec.in_dtype in ("float32", "bool", "uint32") else "f64"
    it = STORAGE_TYPE[spec.in_dtype]
    if spec.final:
        r = "A(acc)" if spec.acc != "u32" else "T(acc)"
        if spec.op == "mean":
            r = "(T(acc) / T(p.count))"
        out_store = store_expr(r, t, spec.out_dtype)
        ot = STORAGE_TYPE[spec.out_dtype]
    else:
        out_store, ot = "acc", spec.acc
    head = _helpers(t) + f"alias A = {spec.acc};\n" + uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> in0: array<{it}>;
@group(0) @binding(1) var<storage, read_write> out0: array<{ot}>;
@group(0) @binding(2) var<uniform> p: Params;
fn ident() -> A {{ return {ident}; }}
fn mapx(x: {it}) -> A {{ return {mapping}; }}
fn comb(a: A, b: A) -> A {{ return {comb}; }}
"""
    if spec.per_thread:
        return head + f"""
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {{
  let stride = nwg.x * 256u;
  for (var o = gid.x; o < p.nout; o = o + stride) {{
    let pp = o % p.pre; let q = o / p.pre;
    let base = pp + q * p.pre * p.len;
    var acc = ident();
    for (var r = 0u; r < p.len; r = r + 1u) {{ acc = comb(acc, mapx(in0[base + r * p.pre])); }}
    out0[o] = {out_store};
  }}
}}
"""
    return head + f"""
var<workgroup> sh: array<A, 256>;
@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {{
  let w = wid.x + wid.y * nwg.x;
  let o = w / p.nchunks; let c = w % p.nchunks;
  var acc = ident();
  if (o < p.nout) {{
    let pp = o % p.pre; let q = o / p.pre;
    let base = pp + q * p.pre * p.len;
    let r0 = c * p.chunk; let r1 = min(p.len, r0 + p.chunk);
    for (var r = r0 + lid; r < r1; r = r + 256u) {{ acc = comb(acc, mapx(in0[base + r * p.pre])); }}
  }}
  sh[lid] = acc;
  workgroupBarrier();
  for (var s = 128u; s > 0u; s = s >> 1u) {{
    if (lid < s) {{ sh[lid] = comb(sh[lid], sh[lid + s]); }}
    workgroupBarrier();
  }}
  if (lid == 0u && o < p.nout) {{ acc = sh[0]; out0[w] = {out_store}; }}
}}
"""


def params(pre: int, length: int, post: int, nchunks: int, chunk: int, count: int,
           acc: str) -> UniformStruct:
    u = UniformStruct().add("pre", "u32", pre).add("len", "u32", length).add("post", "u32", post)
    u.add("nout", "u32", pre * post).add("nchunks", "u32", nchunks).add("chunk", "u32", chunk)
    u.add("count", "u32", count).add("zero", "u32", 0)
    return u


def render_with_index(op: str, in_dtype: str, omitnan: bool, uniform: UniformStruct) -> str:
    """[m, i] = max/min along R; first occurrence; 1-based f64 indices."""
    if op not in ("max", "min"):
        raise Unsupported(f"wgpu: reduce_with_index {op}")
    t = "f32" if in_dtype in ("float32", "bool") else "f64"
    it = STORAGE_TYPE[in_dtype]
    cmp = ">" if op == "max" else "<"
    # NaN ranks below every number with omitnan, above with includenan
    nan_first = "false" if omitnan else "true"
    return _helpers(t) + uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> in0: array<{it}>;
@group(0) @binding(1) var<storage, read_write> out0: array<{it}>;
@group(0) @binding(2) var<storage, read_write> out1: array<f64>;
@group(0) @binding(3) var<uniform> p: Params;
var<workgroup> shv: array<T, 256>;
var<workgroup> shi: array<u32, 256>;
fn better(v1: T, i1: u32, v2: T, i2: u32) -> bool {{
  // does (v2, i2) beat (v1, i1)?
  if (i2 == 0xFFFFFFFFu) {{ return false; }}
  if (i1 == 0xFFFFFFFFu) {{ return true; }}
  let n1 = mfx_isnan(v1); let n2 = mfx_isnan(v2);
  if (n1 != n2) {{ return n2 == {nan_first}; }}
  if (n1 || v1 == v2) {{ return i2 < i1; }}
  return v2 {cmp} v1;
}}
@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {{
  let o = wid.x + wid.y * nwg.x;
  var bv = T(0); var bi = 0xFFFFFFFFu;
  if (o < p.nout) {{
    let pp = o % p.pre; let q = o / p.pre;
    let base = pp + q * p.pre * p.len;
    for (var r = lid; r < p.len; r = r + 256u) {{
      let v = T(in0[base + r * p.pre]);
      if (better(bv, bi, v, r)) {{ bv = v; bi = r; }}
    }}
  }}
  shv[lid] = bv; shi[lid] = bi;
  workgroupBarrier();
  for (var s = 128u; s > 0u; s = s >> 1u) {{
    if (lid < s && better(shv[lid], shi[lid], shv[lid + s], shi[lid + s])) {{
      shv[lid] = shv[lid + s]; shi[lid] = shi[lid + s];
    }}
    workgroupBarrier();
  }}
  if (lid == 0u && o < p.nout) {{
    out0[o] = {it}(shv[0]);
    out1[o] = f64(shi[0]) + 1.0lf;
  }}
}}
"""
