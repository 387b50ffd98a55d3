"""WGSL helper functions that generated kernels (fused and the wgpu
provider's eager ones) call by name.

``library(names)`` returns the source of the requested helpers (and what they
depend on). f64 transcendentals (``mf_exp``, ``mf_log``...; helper name
``f64math``) are matfuse's own (``wgsl_f64math``), since the drivers' f64
builtins are wrong; ``f32math`` holds the f32 functions whose driver
builtins lose accuracy.
"""

from __future__ import annotations

from matfuse.accelerate_api.device_code.wgsl_f32_inverse import F32_INVERSE
from matfuse.accelerate_api.device_code.wgsl_f32math import F32_MATH
from matfuse.accelerate_api.device_code.wgsl_f64math import F64_MATH
from matfuse.accelerate_api.device_code.wgsl_special_functions import special_source
from matfuse.accelerate_api.device_code.wgsl_special_values import (
    MAX_FINITE, SPECIAL_OPS, fused_definition, fused_name,
)

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
    # MATLAB power: negative bases with integer exponents keep their sign;
    # other negative bases give NaN here (the domain flag sends them to the host).
    "mf_pow_f32": ("""
fn mf_pow_f32(a: f32, b: f32) -> f32 {
  if (b == 2.0) { return a * a; }
  if (b == 1.0) { return a; }
  if (b == 0.0) { return 1.0; }
  // the driver's pow (exp2 of b * log2(a)) gives 0 for a NaN base on llvmpipe
  if (((bitcast<u32>(f32(a)) & 0x7fffffffu) > 0x7f800000u) || ((bitcast<u32>(f32(b)) & 0x7fffffffu) > 0x7f800000u)) { return bitcast<f32>(0x7fc00000u); }
  if (mf32_is_small_int(b)) { return mf32_ipow(a, b); }
  if (b == 0.5 && a >= 0.0) { return sqrt(a); }
  let m = pow(abs(a), b);
  if (a < 0.0) {
    if (b != floor(b)) { return bitcast<f32>(0x7fc00000u); }   // NaN: a - a over itself folds to 1 on NVIDIA
    if (fract(b * 0.5) != 0.0) { return -m; }
  }
  return m;
}
""", ("f32math",)),
    "mf_pow_f64": ("""
// MATLAB power in f64 is the f64 library's mf_pow (special values, integer
// exponents by squaring, NaN for negative bases with fractional exponents).
// A wrapper with its own shortcuts returned 0 for 0.^-2 on NVIDIA's Vulkan.
fn mf_pow_f64(a: f64, b: f64) -> f64 { return mf_pow(a, b); }
""", ("f64math",)),
    "mf_log1p_f32": ("""
fn mf_log1p_f32(x: f32) -> f32 {
  let u = 1.0 + x;
  if (u == 1.0) { return x; }
  return log(u) * x / (u - 1.0);
}
""", ()),
}


ATAN2_F32 = """
// lavapipe's f32 atan2 returns 0 for NaN and 3*pi/4 for (0, 0): the special
// cases are handled as mf_atan2 (f64) does; finite non-zeros use mf32_atan
fn mfx_atan2_32(y: f32, x: f32) -> f32 {
  if (((bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u) || ((bitcast<u32>(y) & 0x7fffffffu) > 0x7f800000u)) { return bitcast<f32>(0x7fc00000u); }
  let pi = 3.1415927f;
  if (y == 0.0f) {
    if (x > 0.0f || (x == 0.0f && 1.0f / x > 0.0f)) { return y; }
    if (1.0f / y > 0.0f) { return pi; }
    return -pi;
  }
  if (x == 0.0f) { if (y > 0.0f) { return 1.5707964f; } return -1.5707964f; }
  var r = 0.0f;
  if (abs(x) > 3.4028234663852886e38f && abs(y) > 3.4028234663852886e38f) {
    r = 0.7853982f;
    if (x < 0.0f) { r = 2.3561945f; }
  } else {
    // quarters of both parts when either is above 2^125: drivers that divide
    // by a flushed subnormal reciprocal (NVIDIA's Vulkan) give y/x = 0 or NaN
    let s = select(1.0f, 0.25f, max(abs(x), abs(y)) > 4.2535296e37f);
    r = mf32_atan(abs((y * s) / (x * s)));
    if (x < 0.0f) { r = pi - r; }
  }
  if (y < 0.0f) { return -r; }
  return r;
}
"""

for _t in ("f32", "f64"):
    _HELPERS[f"mf_isnan_{_t}"] = (
        # NaN from the bits of the f32 value (an f64 NaN converts to an f32
        # NaN): NVIDIA's Vulkan compiler dropped `!(x == x)` in an integer store
        f"\nfn mf_isnan_{_t}(x: {_t}) -> bool {{ return (bitcast<u32>(f32(x)) & 0x7fffffffu) > 0x7f800000u; }}\n",
        ())
    for _op, _pick in (("max", "max"), ("min", "min")):
        # MATLAB's max/min ignore a NaN operand
        _HELPERS[f"mf_{_op}_{_t}"] = (f"""
fn mf_{_op}_{_t}(a: {_t}, b: {_t}) -> {_t} {{
  if (mf_isnan_{_t}(a)) {{ return b; }}
  if (mf_isnan_{_t}(b)) {{ return a; }}
  return {_pick}(a, b);
}}
""", (f"mf_isnan_{_t}",))
_HELPERS["mf_idiv_f64"] = ("""
// The quotient of MATLAB's integer division (then rounded half away and
// saturated by the store): x/0 is the largest double of the sign of x times
// the zero's sign (read from its bits: x/-0 is -Inf) and 0/0, NaN/0 are 0,
// so no NaN reaches the store (NVIDIA's Vulkan compiler
// dropped the NaN test of an integer store). Of two whole numbers below
// 2^32 the result is the rounded quotient itself, corrected by the exact
// remainder a - n*b: WGSL allows 2.5 ulp for f64 division, which can move
// a halfway quotient (7/2) to either side of .5.
fn mf_idiv_f64(a: f64, b: f64) -> f64 {
  if (b == f64(0.0)) {
    if (a == f64(0.0) || mf_isnan_f64(a)) { return f64(0.0); }
    let negative_zero = (bitcast<u32>(f32(b)) & 0x80000000u) != 0u;
    return select(f64(-1.7976931348623157e308), f64(1.7976931348623157e308),
                  (a > f64(0.0)) != negative_zero);
  }
  let q = a / b;
  let whole = floor(a) == a && floor(b) == b && abs(a) < f64(4294967296.0)
      && abs(b) < f64(4294967296.0);
  if (!whole) { return q; }
  var n = mf_round_f64(q);
  let r = a - n * b;               // exact: |n * b| stays below 2^34
  let twice = f64(2.0) * abs(r);
  let up = (r > f64(0.0)) == (b > f64(0.0));   // the true quotient is above n
  if (r == f64(0.0)) { return n; }
  if (twice > abs(b)) {
    n = n + select(f64(-1.0), f64(1.0), up);
  } else if (twice == abs(b)) {
    // a tie n +- 1/2: away from zero
    let t = select(n - f64(0.5), n + f64(0.5), up);
    n = select(floor(t), floor(t) + f64(1.0), t > f64(0.0));
  }
  return n;
}
""", ("mf_isnan_f64", "mf_round_f64"))
_HELPERS["mf_div_f32"] = ("""
// a / b, dividing quarters where 1/b is subnormal (|b| > 2^125): drivers that
// divide by a flushed reciprocal (NVIDIA's Vulkan) give 0 for 3e38 / 3e38
fn mf_div_f32(a: f32, b: f32) -> f32 {
  return select(a / b, (a * 0.25f) / (b * 0.25f), abs(b) > 4.2535296e37f);
}
""", ())
_HELPERS["mfx_atan2_32"] = (ATAN2_F32, ("f32math",))
_HELPERS["f64math"] = (F64_MATH, ())
_HELPERS["f32math"] = (F32_MATH, ())
_HELPERS.update(F32_INVERSE)
_HELPERS["f64special"] = (special_source("f64"), ("f64math",))
_HELPERS["f32special"] = (special_source("f32"), ("f32math",))
for _op in SPECIAL_OPS:
    for _t in ("f32", "f64"):
        _text, _deps = fused_definition(_op, _t)
        _HELPERS[fused_name(_op, _t)] = (_text, _deps)


def library(names: set[str] | frozenset[str]) -> str:
    """Source of the helpers in ``names`` plus their dependencies, each once."""
    ordered: list[str] = []
    seen: set[str] = set()

    def add(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        text, deps = _HELPERS[name]
        for dep in deps:
            add(dep)
        ordered.append(text)

    for name in sorted(names):
        add(name)
    return "".join(ordered)
