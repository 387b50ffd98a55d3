"""Generators: fill, eye, linspace, colon and Philox4x32-10 random numbers.

The random kernels reproduce ``matfuse.runtime._philox`` bit for bit
(uniforms) and to the last bit of log/cos/sin (normals); see that module's
docstring for the layout. One thread per output element recomputes its
block (2-4x redundant Philox work, but no cross-thread traffic).
"""

from __future__ import annotations

import numpy as np

from matfuse.accelerate.providers.numpy_kernels import cast_to
from matfuse.accelerate.providers.wgpu.shaders.common import STORAGE_TYPE, UniformStruct
from matfuse.accelerate_api.device_code.wgsl_f64math import F64_MATH

_MAIN = """
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {{
  {init}
  let stride = nwg.x * 256u;
  for (var i = gid.x; i < p.n; i = i + stride) {{
    {body}
  }}
}}
"""


def _kernel(out_dtype: str, uniform: UniformStruct, body: str, f64: bool, extra: str = "") -> str:
    ot = STORAGE_TYPE[out_dtype]
    head = (F64_MATH if f64 else "") + extra + uniform.wgsl()
    head += (f"@group(0) @binding(0) var<storage, read_write> out0: array<{ot}>;\n"
             f"@group(0) @binding(1) var<uniform> p: Params;\n")
    return head + _MAIN.format(init="mf_init(nwg.x);" if f64 else "", body=body)


def fill_kernel(out_dtype: str, n: int, value: float) -> tuple[str, bytes]:
    st = STORAGE_TYPE[out_dtype]
    v: float | int = value
    if out_dtype == "bool":
        v = 1 if value else 0
    elif st in ("i32", "u32"):
        # MATLAB conversion: round half away, saturate, NaN -> 0
        v = int(cast_to(np.array(value, dtype=np.float64), out_dtype))
    u = UniformStruct().add("n", "u32", n).add("pad0", "u32", 0).add("v", st, v)
    return _kernel(out_dtype, u, "out0[i] = p.v;", False), u.pack()


def eye_kernel(out_dtype: str, n: int, rows: int, cols: int) -> tuple[str, bytes]:
    st = STORAGE_TYPE[out_dtype]
    u = UniformStruct().add("n", "u32", n).add("rows", "u32", rows).add("cols", "u32", cols)
    body = (f"let r = i % p.rows; let c = (i / p.rows) % p.cols;\n"
            f"    out0[i] = select({st}(0), {st}(1), r == c);")
    return _kernel(out_dtype, u, body, False), u.pack()


def int_ramp_kernel(n: int, start: int, step: int) -> tuple[str, bytes]:
    """int32 colon ``start + k*step`` in integer arithmetic (device index
    positions: exact, no float round trip)."""
    u = UniformStruct().add("n", "u32", n).add("pad0", "u32", 0)
    u.add("a", "i32", int(start)).add("b", "i32", int(step))
    return _kernel("int32", u, "out0[i] = p.a + i32(i) * p.b;", False), u.pack()


def ramp_kernel(out_dtype: str, n: int, start: float, step_or_stop: float,
                linspace: bool, f64: bool) -> tuple[str, bytes]:
    """colon: start + k*step; linspace: start + k*(stop-start)/(n-1), last = stop."""
    t = "f64" if f64 else "f32"
    st = STORAGE_TYPE[out_dtype]
    u = UniformStruct().add("n", "u32", n).add("pad0", "u32", 0)
    u.add("a", t, start).add("b", t, step_or_stop)
    if linspace:
        body = (f"var v = p.a + {t}(i) * (p.b - p.a) / {t}(max(p.n, 2u) - 1u);\n"
                f"    if (i + 1u == p.n) {{ v = p.b; }}\n"
                f"    out0[i] = {st}(v);")
    else:
        body = f"out0[i] = {st}(p.a + {t}(i) * p.b);"
    return _kernel(out_dtype, u, body, f64), u.pack()


PHILOX = """
fn mulhilo(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xFFFFu; let a1 = a >> 16u; let b0 = b & 0xFFFFu; let b1 = b >> 16u;
  let p00 = a0 * b0; let p01 = a0 * b1; let p10 = a1 * b0; let p11 = a1 * b1;
  let mid = (p00 >> 16u) + (p01 & 0xFFFFu) + (p10 & 0xFFFFu);
  return vec2<u32>(p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u), (mid << 16u) | (p00 & 0xFFFFu));
}
fn philox(block: u32) -> vec4<u32> {
  // 64-bit block index: counter0 + block, with carry into the high word
  let lo = p.c_lo + block;
  let hi = p.c_hi + select(0u, 1u, lo < block);
  var c = vec4<u32>(lo, hi, 0u, 0u);
  var k0 = p.k0; var k1 = p.k1;
  for (var r = 0u; r < 10u; r = r + 1u) {
    if (r > 0u) { k0 = k0 + 0x9E3779B9u; k1 = k1 + 0xBB67AE85u; }
    let m0 = mulhilo(0xD2511F53u, c.x);
    let m1 = mulhilo(0xCD9E8D57u, c.z);
    c = vec4<u32>(m1.x ^ c.y ^ k0, m1.y, m0.x ^ c.w ^ k1, m0.y);
  }
  return c;
}
fn u01_double(a: u32, b: u32) -> f64 {
  return (f64(a >> 5u) * 67108864.0lf + f64(b >> 6u) + 0.5lf) * 1.1102230246251565e-16lf;
}
fn u01_single(x: u32) -> f32 { return (f32(x >> 9u) + 0.5f) * 1.1920928955078125e-07f; }
"""


def random_kernel(out_dtype: str, n: int, key: tuple[int, int], counter: int,
                  normal: bool, f64: bool) -> tuple[str, bytes]:
    """Uniform (0,1) or standard normal values of the Philox stream."""
    u = UniformStruct().add("n", "u32", n).add("k0", "u32", key[0] & 0xFFFFFFFF)
    u.add("k1", "u32", key[1] & 0xFFFFFFFF).add("c_lo", "u32", counter & 0xFFFFFFFF)
    u.add("c_hi", "u32", (counter >> 32) & 0xFFFFFFFF)
    single = out_dtype == "float32"
    if not normal and single:
        body = "let w = philox(i / 4u); out0[i] = u01_single(w[i % 4u]);"
    elif not normal:
        body = ("let w = philox(i / 2u);\n"
                "    if ((i & 1u) == 0u) { out0[i] = u01_double(w.x, w.y); }"
                " else { out0[i] = u01_double(w.z, w.w); }")
    else:
        if single:
            pick = ("let q = i / 2u; let w = philox(q / 2u);\n"
                    "    var u1 = f64(u01_single(w.x)); var u2 = f64(u01_single(w.y));\n"
                    "    if ((q & 1u) == 1u) { u1 = f64(u01_single(w.z)); u2 = f64(u01_single(w.w)); }\n")
        else:
            pick = ("let w = philox(i / 2u);\n"
                    "    let u1 = u01_double(w.x, w.y); let u2 = u01_double(w.z, w.w);\n")
        store = "f32(z)" if single else "z"
        body = (pick + "    let r = sqrt(-2.0lf * mf_log(u1)); let th = 6.283185307179586lf * u2;\n"
                "    var z = r * mf_cos(th); if ((i & 1u) == 1u) { z = r * mf_sin(th); }\n"
                f"    out0[i] = {store};")
    need_f64 = normal or not single
    # PHILOX reads p.*, so it goes after the Params struct: render inline.
    ot = STORAGE_TYPE[out_dtype]
    src = ((F64_MATH if need_f64 else "") + u.wgsl()
           + f"@group(0) @binding(0) var<storage, read_write> out0: array<{ot}>;\n"
           + "@group(0) @binding(1) var<uniform> p: Params;\n"
           + (PHILOX if need_f64 else PHILOX.split("fn u01_double")[0] + "fn u01_single"
              + PHILOX.split("fn u01_single")[1])
           + _MAIN.format(init="mf_init(nwg.x);" if need_f64 else "", body=body))
    return src, u.pack()
