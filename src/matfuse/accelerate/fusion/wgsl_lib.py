"""WGSL helper functions that generated kernels call by name.

``library(names)`` returns the source of the requested helpers (and what they
depend on). f64 transcendentals (``mf_exp``, ``mf_log``...; helper name ``f64math``)
come from the wgpu provider's own f64 math library, since the drivers' f64
builtins are wrong.
"""

from __future__ import annotations

_PHILOX = """
fn mulhilo32(a: u32, b: u32) -> vec2<u32> {
  let a_lo = a & 0xffffu; let a_hi = a >> 16u;
  let b_lo = b & 0xffffu; let b_hi = b >> 16u;
  let ll = a_lo * b_lo; let lh = a_lo * b_hi; let hl = a_hi * b_lo; let hh = a_hi * b_hi;
  let mid = (ll >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);
  let lo = (ll & 0xffffu) | (mid << 16u);
  let hi = hh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u);
  return vec2<u32>(hi, lo);
}
fn philox4x32_10(ctr_in: vec4<u32>, key_in: vec2<u32>) -> vec4<u32> {
  var c = ctr_in; var k = key_in;
  for (var round: u32 = 0u; round < 10u; round = round + 1u) {
    if (round > 0u) { k = vec2<u32>(k.x + 0x9E3779B9u, k.y + 0xBB67AE85u); }
    let p0 = mulhilo32(0xD2511F53u, c.x);
    let p1 = mulhilo32(0xCD9E8D57u, c.z);
    c = vec4<u32>(p1.x ^ c.y ^ k.x, p1.y, p0.x ^ c.w ^ k.y, p0.y);
  }
  return c;
}
"""

_HELPERS: dict[str, tuple[str, tuple[str, ...]]] = {
    # a run-time 1.0 the compiler cannot see through (set at kernel start)
    "mf_keep_one": ("""
var<private> mf_keep_one: f32;
""", ()),
    "mf_keep_f32": ("""
fn mf_keep_f32(x: f32) -> f32 { return x * mf_keep_one; }
""", ("mf_keep_one",)),
    "mf_keep_f64": ("""
fn mf_keep_f64(x: f64) -> f64 { return x * f64(mf_keep_one); }
""", ("mf_keep_one",)),
    "philox": (_PHILOX, ()),
    "u01_f64": ("""
fn u01_f64(a: u32, b: u32) -> f64 {
  return (f64(a >> 5u) * 67108864.0 + f64(b >> 6u) + 0.5) * (1.0 / 9007199254740992.0);
}
""", ()),
    "u01_f32": ("""
fn u01_f32(x: u32) -> f32 {
  return (f32(x >> 9u) + 0.5) * (1.0 / 8388608.0);
}
""", ()),
    "mf_max_f32": ("""
fn mf_max_f32(a: f32, b: f32) -> f32 {
  if (((bitcast<u32>(f32(a)) & 0x7fffffffu) > 0x7f800000u)) { return b; }
  if (((bitcast<u32>(f32(b)) & 0x7fffffffu) > 0x7f800000u)) { return a; }
  return max(a, b);
}
""", ()),
    "mf_min_f32": ("""
fn mf_min_f32(a: f32, b: f32) -> f32 {
  if (((bitcast<u32>(f32(a)) & 0x7fffffffu) > 0x7f800000u)) { return b; }
  if (((bitcast<u32>(f32(b)) & 0x7fffffffu) > 0x7f800000u)) { return a; }
  return min(a, b);
}
""", ()),
    "mf_max_f64": ("""
fn mf_max_f64(a: f64, b: f64) -> f64 {
  if (((bitcast<u32>(f32(a)) & 0x7fffffffu) > 0x7f800000u)) { return b; }
  if (((bitcast<u32>(f32(b)) & 0x7fffffffu) > 0x7f800000u)) { return a; }
  return max(a, b);
}
""", ()),
    "mf_min_f64": ("""
fn mf_min_f64(a: f64, b: f64) -> f64 {
  if (((bitcast<u32>(f32(a)) & 0x7fffffffu) > 0x7f800000u)) { return b; }
  if (((bitcast<u32>(f32(b)) & 0x7fffffffu) > 0x7f800000u)) { return a; }
  return min(a, b);
}
""", ()),
    # MATLAB power: negative bases with integer exponents keep their sign;
    # other negative bases give NaN here (the domain flag sends them to the host).
    "mf_pow_f32": ("""
fn mf_pow_f32(a: f32, b: f32) -> f32 {
  if (b == 2.0) { return a * a; }
  if (b == 1.0) { return a; }
  if (b == 0.0) { return 1.0; }
  // the driver's pow (exp2 of b * log2(a)) gives 0 for a NaN base on llvmpipe
  if (((bitcast<u32>(f32(a)) & 0x7fffffffu) > 0x7f800000u) || ((bitcast<u32>(f32(b)) & 0x7fffffffu) > 0x7f800000u)) { return a + b; }
  if (mf32_is_small_int(b)) { return mf32_ipow(a, b); }
  if (b == 0.5 && a >= 0.0) { return sqrt(a); }
  let m = pow(abs(a), b);
  if (a < 0.0) {
    if (b != floor(b)) { return m - m + (a - a) / (a - a); }
    if (fract(b * 0.5) != 0.0) { return -m; }
  }
  return m;
}
""", ("f32math",)),
    "mf_pow_f64": ("""
fn mf_pow_f64(a: f64, b: f64) -> f64 {
  if (b == 2.0) { return a * a; }
  if (b == 1.0) { return a; }
  if (b == 0.0) { return 1.0; }
  if (b == 0.5 && a >= 0.0) { return sqrt(a); }
  let m = mf_pow(abs(a), b);
  if (a < 0.0) {
    if (b != floor(b)) { return m - m + (a - a) / (a - a); }
    if (fract(b * 0.5) != 0.0) { return -m; }
  }
  return m;
}
""", ("f64math",)),
    "mf_log1p_f32": ("""
fn mf_log1p_f32(x: f32) -> f32 {
  let u = 1.0 + x;
  if (u == 1.0) { return x; }
  return log(u) * x / (u - 1.0);
}
""", ()),
}


def _f64_math() -> str:
    # The wgpu provider's f64 library (own range reduction + polynomials).
    from matfuse.accelerate.providers.wgpu.shaders.f64math import F64_MATH

    return F64_MATH


def _f32_math() -> str:
    # f32 functions whose driver builtins lose accuracy near zero.
    from matfuse.accelerate.providers.wgpu.shaders.f32math import F32_MATH

    return F32_MATH


def _atan2_f32() -> tuple[str, tuple[str, ...]]:
    from matfuse.accelerate.providers.wgpu.shaders.elementwise import ATAN2_F32

    return ATAN2_F32, ("f32math",)


def _special(name: str) -> tuple[str, tuple[str, ...]]:
    """``mf_<op>_<t>`` of the definitions the eager kernels share."""
    from matfuse.accelerate.providers.wgpu.shaders.special_values import fused_definition

    op, t = name.removeprefix("mf_").rsplit("_", 1)
    return fused_definition(op, t)


def library(names: set[str]) -> str:
    """Source of the helpers in ``names`` plus their dependencies, each once."""
    ordered: list[str] = []
    seen: set[str] = set()

    def add(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        if name == "f64math":
            ordered.append(_f64_math())
            return
        if name == "f32math":
            ordered.append(_f32_math())
            return
        if name in _HELPERS:
            text, deps = _HELPERS[name]
        elif name == "mfx_atan2_32":
            text, deps = _atan2_f32()
        else:
            text, deps = _special(name)
        for dep in deps:
            add(dep)
        ordered.append(text)

    for name in sorted(names):
        add(name)
    return "".join(ordered)
