"""Data movement: permute, gather, scatter (last write wins), triangular
masks, and find (stream compaction in three passes)."""

from __future__ import annotations

from matfuse.accelerate.providers.wgpu.shaders.common import STORAGE_TYPE, UniformStruct

MAX_RANK = 8

_GRID = """
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {{
  let stride = nwg.x * 256u;
  for (var i = gid.x; i < p.n; i = i + stride) {{
    {body}
  }}
}}
"""


def permute_params(n: int, out_dims: list[int], in_strides: list[int]) -> UniformStruct:
    u = UniformStruct().add("n", "u32", n).add("rank", "u32", len(out_dims))
    u.add("pad0", "u32", 0).add("pad1", "u32", 0)
    u.add_u32_array("dims", out_dims, MAX_RANK).add_u32_array("st", in_strides, MAX_RANK)
    return u


def render_permute(dtype: str, uniform: UniformStruct) -> str:
    st = STORAGE_TYPE[dtype]
    body = ("var rem = i; var o = 0u;\n"
            "    for (var d = 0u; d < p.rank; d = d + 1u) {\n"
            "      let nd = p.dims[d >> 2u][d & 3u]; o = o + (rem % nd) * p.st[d >> 2u][d & 3u]; rem = rem / nd;\n"
            "    }\n    out0[i] = in0[o];")
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> in0: array<{st}>;
@group(0) @binding(1) var<storage, read_write> out0: array<{st}>;
@group(0) @binding(2) var<uniform> p: Params;
""" + _GRID.format(body=body)


def range_positions_params(n: int, base: int, counts: list[int],
                           axes: list[tuple[int, int, int, int]]) -> UniformStruct:
    """Uniforms of ``render_range_positions``: signed values travel as u32
    bit patterns (read back with ``bitcast<i32>``)."""
    u = UniformStruct().add("n", "u32", n).add("rank", "u32", len(counts))
    u.add("base", "u32", base).add("pad0", "u32", 0)
    u.add_u32_array("cnt", counts, MAX_RANK)
    for k, name in enumerate(("first", "step", "modulus", "scale")):
        u.add_u32_array(name, [a[k] for a in axes], MAX_RANK)
    return u


def render_range_positions(uniform: UniformStruct) -> str:
    """int32 positions of an N-D range selection (the provider protocol's
    ``range_positions``): per dimension ``first + j*step``, wrapped by
    ``modulus`` and scaled when ``modulus > 0``."""
    body = ("var rem = i; var pos = bitcast<i32>(p.base);\n"
            "    for (var d = 0u; d < p.rank; d = d + 1u) {\n"
            "      let c = p.cnt[d >> 2u][d & 3u]; let j = i32(rem % c); rem = rem / c;\n"
            "      var v = bitcast<i32>(p.first[d >> 2u][d & 3u]) + j * bitcast<i32>(p.step[d >> 2u][d & 3u]);\n"
            "      let m = i32(p.modulus[d >> 2u][d & 3u]);\n"
            "      if (m > 0) { v = (((v % m) + m) % m) * i32(p.scale[d >> 2u][d & 3u]); }\n"
            "      pos = pos + v;\n"
            "    }\n    out0[i] = pos;")
    return uniform.wgsl() + """
@group(0) @binding(0) var<storage, read_write> out0: array<i32>;
@group(0) @binding(1) var<uniform> p: Params;
""" + _GRID.format(body=body)


def _gather_source(dtype: str, index_dtype: str, uniform: UniformStruct, body: str) -> str:
    """A gather kernel: source ``in0``, indices ``idx``, output ``out0``."""
    st, it = STORAGE_TYPE[dtype], STORAGE_TYPE[index_dtype]
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> in0: array<{st}>;
@group(0) @binding(1) var<storage, read> idx: array<{it}>;
@group(0) @binding(2) var<storage, read_write> out0: array<{st}>;
@group(0) @binding(3) var<uniform> p: Params;
""" + _GRID.format(body=body)


def render_gather(dtype: str, index_dtype: str, uniform: UniformStruct) -> str:
    return _gather_source(dtype, index_dtype, uniform, "out0[i] = in0[min(u32(idx[i]), p.m - 1u)];")


def render_gather_range(dtype: str, index_dtype: str, uniform: UniformStruct) -> str:
    """Split gather: the source is bound from element ``p.s`` (``p.c``
    elements); only indices inside that range are written."""
    return _gather_source(dtype, index_dtype, uniform,
                          "let k = min(u32(idx[i]), p.m - 1u);\n"
                          "    if (k >= p.s && k - p.s < p.c) { out0[i] = in0[k - p.s]; }")


def render_scatter_claim(index_dtype: str, uniform: UniformStruct) -> str:
    """Pass 1: winner[idx[k]] = max(k + 1): the last write of a duplicate wins."""
    it = STORAGE_TYPE[index_dtype]
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> idx: array<{it}>;
@group(0) @binding(1) var<storage, read_write> winner: array<atomic<u32>>;
@group(0) @binding(2) var<uniform> p: Params;
""" + _GRID.format(body="atomicMax(&winner[min(u32(idx[i]), p.m - 1u)], i + 1u);")


def render_scatter_write(dtype: str, index_dtype: str, value_dtype: str | None,
                         uniform: UniformStruct) -> str:
    """Pass 2: the winning k writes values[k] (or the scalar)."""
    st, it = STORAGE_TYPE[dtype], STORAGE_TYPE[index_dtype]
    decl_v = (f"@group(0) @binding(2) var<storage, read> vals: array<{STORAGE_TYPE[value_dtype]}>;\n"
              if value_dtype else "")
    b = 3 if value_dtype else 2
    value = f"{st}(vals[i])" if value_dtype else "p.v"
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> idx: array<{it}>;
@group(0) @binding(1) var<storage, read> winner: array<u32>;
{decl_v}@group(0) @binding({b}) var<storage, read_write> out0: array<{st}>;
@group(0) @binding({b + 1}) var<uniform> p: Params;
""" + _GRID.format(body=f"let j = min(u32(idx[i]), p.m - 1u); if (winner[j] == i + 1u) {{ out0[j] = {value}; }}")


def render_triangular(dtype: str, upper: bool, uniform: UniformStruct) -> str:
    st = STORAGE_TYPE[dtype]
    keep = "c - r >= p.k" if upper else "c - r <= p.k"
    body = (f"let r = i32(i % p.rows); let c = i32((i / p.rows) % p.cols);\n"
            f"    out0[i] = select({st}(0), in0[i], {keep});")
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> in0: array<{st}>;
@group(0) @binding(1) var<storage, read_write> out0: array<{st}>;
@group(0) @binding(2) var<uniform> p: Params;
""" + _GRID.format(body=body)


FIND_BLOCK = 1024  # elements per workgroup (4 per thread)


def render_find_count(dtype: str, uniform: UniformStruct) -> str:
    st = STORAGE_TYPE[dtype]
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> in0: array<{st}>;
@group(0) @binding(1) var<storage, read_write> counts: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;
var<workgroup> total: atomic<u32>;
@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {{
  let blk = wid.x + wid.y * nwg.x;
  if (lid == 0u) {{ atomicStore(&total, 0u); }}
  workgroupBarrier();
  var c = 0u;
  for (var e = 0u; e < 4u; e = e + 1u) {{
    let i = blk * 1024u + lid * 4u + e;
    if (i < p.n && !(in0[i] == {st}(0))) {{ c = c + 1u; }}
  }}
  atomicAdd(&total, c);
  workgroupBarrier();
  if (lid == 0u && blk < p.nblocks) {{ counts[blk] = atomicLoad(&total); }}
}}
"""


def render_find_scan(uniform: UniformStruct) -> str:
    """Exclusive scan of block counts by one thread; offsets[nblocks] = total."""
    return uniform.wgsl() + """
@group(0) @binding(0) var<storage, read> counts: array<u32>;
@group(0) @binding(1) var<storage, read_write> offsets: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;
@compute @workgroup_size(1)
fn main() {
  var s = 0u;
  for (var b = 0u; b < p.nblocks; b = b + 1u) { offsets[b] = s; s = s + counts[b]; }
  offsets[p.nblocks] = s;
}
"""


def render_find_write(dtype: str, uniform: UniformStruct) -> str:
    st = STORAGE_TYPE[dtype]
    return uniform.wgsl() + f"""
@group(0) @binding(0) var<storage, read> in0: array<{st}>;
@group(0) @binding(1) var<storage, read> offsets: array<u32>;
@group(0) @binding(2) var<storage, read_write> out0: array<f64>;
@group(0) @binding(3) var<uniform> p: Params;
var<workgroup> sh: array<u32, 256>;
@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {{
  let blk = wid.x + wid.y * nwg.x;
  var c = 0u;
  for (var e = 0u; e < 4u; e = e + 1u) {{
    let i = blk * 1024u + lid * 4u + e;
    if (i < p.n && !(in0[i] == {st}(0))) {{ c = c + 1u; }}
  }}
  sh[lid] = c;
  workgroupBarrier();
  // Hillis-Steele inclusive scan of per-thread counts
  for (var s = 1u; s < 256u; s = s << 1u) {{
    var v = 0u;
    if (lid >= s) {{ v = sh[lid - s]; }}
    workgroupBarrier();
    sh[lid] = sh[lid] + v;
    workgroupBarrier();
  }}
  if (blk >= p.nblocks) {{ return; }}
  var pos = offsets[blk] + sh[lid] - c;
  for (var e = 0u; e < 4u; e = e + 1u) {{
    let i = blk * 1024u + lid * 4u + e;
    if (i < p.n && !(in0[i] == {st}(0))) {{ out0[pos] = f64(i) + 1.0lf; pos = pos + 1u; }}
  }}
}}
"""
