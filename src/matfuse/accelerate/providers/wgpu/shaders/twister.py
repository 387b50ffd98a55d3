"""MT19937 on the device: the host's twister stream, word for word.

Two kernels (see ``runtime/_mt19937.py`` for the stream and the value
formulas they reproduce):

* ``GENERATE``: one workgroup holds the 624-word state in workgroup memory
  and produces the next ``n`` tempered words. MT19937 is block-sequential:
  word ``k+624`` depends on words ``k``, ``k+1`` and ``k+397``, so a twist of
  the whole block runs as three parallel stages (227, 227 and 170 words)
  writing the next block into the other half of a two-block ring (one
  barrier per stage); the block's words are then tempered and written out
  in parallel. The state is read from and
  written back to a 624-word storage buffer, so consecutive dispatches (and
  consecutive draws) continue one stream; the position within the block
  comes from the host, which knows how many words each draw takes.
* ``convert_kernel``: one thread per value turns the words into uniform
  doubles (``((a>>5)*2^26 + (b>>6)) / 2^53``, exact), singles (that double
  rounded to nearest, ties to even, checked against its neighbours rather
  than trusting the driver's f64 -> f32 conversion), Box-Muller normals with
  the f64 ``mf_log1p``/``mf_cos`` of ``device_code/wgsl_f64math`` (within a
  few ulps of NumPy) and randi integers.
"""

from __future__ import annotations

from matfuse.accelerate.providers.wgpu.shaders.common import STORAGE_TYPE, UniformStruct
from matfuse.accelerate_api.device_code.wgsl_f64math import F64_MATH

#: words of the state, and the invocations of the generating workgroup
STATE_WORDS = 624
GENERATE_THREADS = 256
#: output dtypes the conversion kernel writes, per draw kind
OUTPUT_DTYPES = {
    "uniform": ("float64", "float32"),
    "normal": ("float64", "float32"),
    "randi": ("float64", "float32", "int8", "int16", "int32", "uint8", "uint16", "uint32"),
}

GENERATE = """
struct Params { n: u32, pos: u32, base: u32, pad0: u32, };
@group(0) @binding(0) var<storage, read_write> state: array<u32>;
@group(0) @binding(1) var<storage, read_write> words: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;
// two 624-word halves: the current block and the one the next twist writes
var<workgroup> ring: array<u32, 1248>;

fn temper(x: u32) -> u32 {
  var y = x ^ (x >> 11u);
  y = y ^ ((y << 7u) & 0x9d2c5680u);
  y = y ^ ((y << 15u) & 0xefc60000u);
  return y ^ (y >> 18u);
}

// the new word of position i from old[i], old[i+1] and the word 397 ahead
fn twist(a: u32, b: u32, far: u32) -> u32 {
  let y = (a & 0x80000000u) | (b & 0x7fffffffu);
  return far ^ (y >> 1u) ^ select(0u, 0x9908b0dfu, (y & 1u) == 1u);
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) t: u32) {
  for (var i = t; i < 624u; i = i + 256u) { ring[i] = state[i]; }
  workgroupBarrier();
  var cur = 0u;
  var done = 0u;
  var pos = p.pos;
  loop {
    if (done >= p.n) { break; }
    if (pos == 624u) {
      // old half at cur, new half at nw: no word is read and written in one
      // stage, so each stage needs one barrier
      let nw = 624u - cur;
      if (t < 227u) { ring[nw + t] = twist(ring[cur + t], ring[cur + t + 1u], ring[cur + t + 397u]); }
      workgroupBarrier();
      if (t < 227u) {
        let i = t + 227u;
        ring[nw + i] = twist(ring[cur + i], ring[cur + i + 1u], ring[nw + i - 227u]);
      }
      workgroupBarrier();
      if (t < 170u) {
        let i = t + 454u;
        let next = select(cur + i + 1u, nw, i == 623u);   // word 623 pairs with the new word 0
        ring[nw + i] = twist(ring[cur + i], ring[next], ring[nw + i - 227u]);
      }
      workgroupBarrier();
      cur = nw;
      pos = 0u;
    }
    let take = min(624u - pos, p.n - done);
    for (var i = t; i < take; i = i + 256u) { words[p.base + done + i] = temper(ring[cur + pos + i]); }
    done = done + take;
    pos = pos + take;
  }
  workgroupBarrier();
  for (var i = t; i < 624u; i = i + 256u) { state[i] = ring[cur + i]; }
}
"""

_CONVERT_HELPERS = """
fn res53(a: u32, b: u32) -> f64 {
  return (f64(a >> 5u) * 67108864.0lf + f64(b >> 6u)) * 1.1102230246251565e-16lf;
}

// d rounded to the nearest single, ties to even (NumPy's astype(float32))
fn to_single(d: f64) -> f32 {
  var f = f32(d);
  let bits = bitcast<u32>(f);
  if ((bits & 0x7fffffffu) == 0u || (bits & 0x7f800000u) == 0x7f800000u) { return f; }
  let err = abs(f64(f) - d);
  let down = bitcast<f32>(bits - 1u);
  let up = bitcast<f32>(bits + 1u);
  let err_down = abs(f64(down) - d);
  let err_up = abs(f64(up) - d);
  if (err_down < err || (err_down == err && (bits & 1u) == 1u)) { f = down; }
  else if (err_up < err || (err_up == err && (bits & 1u) == 1u)) { f = up; }
  return f;
}
"""

_CONVERT_MAIN = """
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  mf_init(nwg.x);
  let stride = nwg.x * 256u;
  for (var i = gid.x; i < p.n; i = i + stride) {
    {body}
  }
}
"""


def generate_params(n: int, pos: int, base: int) -> bytes:
    """Uniform of ``GENERATE``: ``n`` words from position ``pos``, written
    from word ``base`` of the words buffer."""
    return (UniformStruct().add("n", "u32", n).add("pos", "u32", pos)
            .add("base", "u32", base).add("pad0", "u32", 0).pack())


def convert_kernel(kind: str, out_dtype: str, n: int,
                   limits: tuple[float, float]) -> tuple[str, bytes]:
    """(WGSL, uniform) turning the words of ``n`` values into ``out_dtype``."""
    u = (UniformStruct().add("n", "u32", n).add("pad0", "u32", 0)
         .add("lo", "f64", float(limits[0])).add("span", "f64", float(limits[1] - limits[0] + 1.0)))
    st = STORAGE_TYPE[out_dtype]
    if kind == "normal":
        value = ("let u1 = res53(words[4u * i], words[4u * i + 1u]);\n"
                 "    let u2 = res53(words[4u * i + 2u], words[4u * i + 3u]);\n"
                 "    let v = sqrt(-2.0lf * mf_log1p(-u1)) * mf_cos(6.283185307179586lf * u2);\n")
    elif kind == "uniform":
        value = "let v = res53(words[2u * i], words[2u * i + 1u]);\n"
    elif kind == "randi":
        value = "let v = p.lo + floor(res53(words[2u * i], words[2u * i + 1u]) * p.span);\n"
    else:
        raise ValueError(f"unknown twister draw kind {kind!r}")
    store = {"f64": "v", "f32": "to_single(v)"}.get(st, f"{st}(v)")
    body = value + f"    out0[i] = {store};"
    src = (F64_MATH + _CONVERT_HELPERS + u.wgsl()
           + "@group(0) @binding(0) var<storage, read> words: array<u32>;\n"
           + f"@group(0) @binding(1) var<storage, read_write> out0: array<{st}>;\n"
           + "@group(0) @binding(2) var<uniform> p: Params;\n"
           + _CONVERT_MAIN.replace("{body}", body))
    return src, u.pack()
