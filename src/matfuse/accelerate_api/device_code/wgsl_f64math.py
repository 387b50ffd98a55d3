"""Our own f64 transcendentals in WGSL.

The drivers' f64 ``exp/log/sin/cos/tan/pow/tanh`` are wrong on NVIDIA Vulkan
and lavapipe (GPU-FACTS.md), so every f64 transcendental the provider runs is
computed here from ``+ - * / fma sqrt floor round ldexp`` only. Algorithms
follow fdlibm (Sun Microsystems, freely redistributable): Cody-Waite /
Tang reduction plus minimax polynomials. WGSL has no f64 bit casts and
``frexp`` on f64 needs i64, so exponents are found with a binary ladder of
comparisons (``mf_split``). sin/cos/tan reduce by pi/2 with a
Cody-Waite pi/2 in 24-bit chunks for |x| < 2^28 and Payne-Hanek beyond
(``trig_reduction.py``): right over the whole double range.

Measured against NumPy on lavapipe (tests/accelerate/providers/
test_wgpu_f64math.py), max relative error over wide random ranges:
exp/log/log2/log10/atan/atan2/cosh/pow 2.3e-16; sin/cos/asin/log1p <= 4e-16;
tan/acos/expm1/sinh/asinh/acosh/atanh <= 4.8e-16; tanh <= 6.6e-16.
"""

from __future__ import annotations

from matfuse.accelerate_api.device_code.wgsl_trig_reduction import PAYNE_HANEK_F64

F64_MATH = r"""
// Compilers (Mesa NIR, likely others) apply inexact algebraic rewrites such
// as (a + b) - a -> b, and do not fuse fma (lavapipe's fma is a*b + c).
// Error-free transforms therefore pass intermediates through mf_o(), a
// multiply by a runtime 1.0 the optimizer cannot see through. Every kernel
// that uses these functions must call mf_init(nwg.x) first.
var<private> mf_one: f64;
fn mf_init(n: u32) { mf_one = f64(min(n, 1u)); }
fn mf_o(x: f64) -> f64 { return x * mf_one; }

// NaN/inf from f32 bit patterns: 0/0 or x/x get folded to 1 under the
// fast-math rules of some drivers (seen on NVIDIA Vulkan).
fn mf_inf() -> f64 { return f64(bitcast<f32>(0x7f800000u)); }
fn mf_nan() -> f64 { return f64(bitcast<f32>(0x7fc00000u)); }
fn mf_isnan(x: f64) -> bool { return ((bitcast<u32>(f32(x)) & 0x7fffffffu) > 0x7f800000u); }
// sqrt is correctly rounded on the drivers (GPU-FACTS); named for renderers
// that spell every f64 unary op as mf_<op>
fn mf_sqrt(x: f64) -> f64 { return sqrt(x); }
fn mf_isinf(x: f64) -> bool { return abs(x) > 1.7976931348623157e308lf; }

struct MfSplit { m: f64, e: i32, };
// x > 0 finite -> x = m * 2^e with m in [1, 2)
fn mf_split(x: f64) -> MfSplit {
  var m = x;
  var e = 0i;
  if (m < 2.2250738585072014e-308lf) { m = m * 18014398509481984.0lf; e = e - 54i; }
  if (m < 1.0lf) { m = ldexp(m, 600i); e = e - 600i; }
  if (m < 1.0lf) { m = ldexp(m, 600i); e = e - 600i; }
  var s = 512i;
  loop {
    if (s == 0i) { break; }
    if (m >= ldexp(1.0lf, s)) { m = ldexp(m, -s); e = e + s; }
    s = s / 2i;
  }
  return MfSplit(m, e);
}

fn mf_scale(y: f64, k: i32) -> f64 {
  // ldexp in two halves so 2^k itself never overflows/underflows
  let h = k / 2i;
  return ldexp(ldexp(y, h), k - h);
}

fn mf_exp(x: f64) -> f64 {
  if (mf_isnan(x)) { return x; }
  if (x > 709.782712893384lf) { return mf_inf(); }
  if (x < -745.1332191019412lf) { return 0.0lf; }
  if (abs(x) < 3.725290298461914e-09lf) { return 1.0lf + x; }
  let k = round(x * 1.4426950408889634lf);
  let hi = x - k * 0.6931471803691238lf;
  let lo = k * 1.9082149292705877e-10lf;
  let r = hi - lo;
  let t = r * r;
  let c = r - t * (0.16666666666666602lf + t * (-0.0027777777777015593lf + t * (6.613756321437934e-05lf
          + t * (-1.6533902205465252e-06lf + t * 4.1381367970572385e-08lf))));
  let y = 1.0lf - ((lo - (r * c) / (2.0lf - c)) - hi);
  return mf_scale(y, i32(k));
}

fn mf_expm1(x: f64) -> f64 {
  // Kahan's trick: exact cancellation of u - 1 corrected by x / log(u)
  if (mf_isnan(x)) { return x; }
  if (x > 709.0lf) { return mf_exp(x); }
  if (x < -40.0lf) { return -1.0lf; }
  let u = mf_exp(x);
  if (u == 1.0lf) { return x; }
  let um1 = u - 1.0lf;
  if (um1 == -1.0lf) { return -1.0lf; }
  return um1 * x / mf_log(u);
}

// log(1+f) for f = m - 1, m in [sqrt(2)/2, sqrt(2)): returns (2s + s*R) split
struct MfLogParts { k: f64, f: f64, hfsq: f64, s: f64, r: f64, };
fn mf_log_parts(x: f64) -> MfLogParts {
  let sp = mf_split(x);
  var m = sp.m;
  var k = f64(sp.e);
  if (m > 1.4142135623730951lf) { m = m * 0.5lf; k = k + 1.0lf; }
  let f = m - 1.0lf;
  let hfsq = 0.5lf * f * f;
  let s = f / (2.0lf + f);
  let z = s * s;
  let w = z * z;
  let t1 = w * (0.3999999999940942lf + w * (0.22222198432149784lf + w * 0.15313837699209373lf));
  let t2 = z * (0.6666666666666735lf + w * (0.2857142874366239lf + w * (0.1818357216161805lf
           + w * 0.14798198605116586lf)));
  return MfLogParts(k, f, hfsq, s, t1 + t2);
}

fn mf_log_special(x: f64) -> f64 {
  // NaN for x < 0 / NaN, -inf for 0, inf for inf; 1.0 means "no special case"
  if (mf_isnan(x) || x < 0.0lf) { return mf_nan(); }
  if (x == 0.0lf) { return -mf_inf(); }
  if (mf_isinf(x)) { return x; }
  return 1.0lf;
}

fn mf_log(x: f64) -> f64 {
  let sp = mf_log_special(x);
  if (sp != 1.0lf) { return sp; }
  let p = mf_log_parts(x);
  return p.k * 0.6931471803691238lf - ((p.hfsq - (p.s * (p.hfsq + p.r) + p.k * 1.9082149292705877e-10lf)) - p.f);
}

fn mf_log_m(p: MfLogParts) -> f64 { return p.f - (p.hfsq - p.s * (p.hfsq + p.r)); }

fn mf_log2(x: f64) -> f64 {
  let sp = mf_log_special(x);
  if (sp != 1.0lf) { return sp; }
  let p = mf_log_parts(x);
  // k exact; only log(m) is scaled, so powers of two give exact integers
  return p.k + mf_log_m(p) * 1.4426950408889634lf;
}

fn mf_log10(x: f64) -> f64 {
  let sp = mf_log_special(x);
  if (sp != 1.0lf) { return sp; }
  let p = mf_log_parts(x);
  let r = p.k * 0.3010299956639812lf + (p.k * -2.8037281277851704e-18lf + mf_log_m(p) * 0.4342944819032518lf);
  // snap to the integer when 10^round(r) == x (MATLAB users expect log10(1000) == 3)
  let n = round(r);
  if (abs(r - n) < 1e-13lf && abs(n) <= 22.0lf) {
    var t = 1.0lf;
    for (var i = 0i; i < i32(abs(n)); i = i + 1i) { t = t * 10.0lf; }
    if ((n >= 0.0lf && t == x) || (n < 0.0lf && 1.0lf / t == x)) { return n; }
  }
  return r;
}

fn mf_log1p(x: f64) -> f64 {
  if (mf_isnan(x) || x < -1.0lf) { return mf_nan(); }
  if (x == -1.0lf) { return -mf_inf(); }
  let u = mf_o(1.0lf + x);
  if (u == 1.0lf) { return x; }
  if (mf_isinf(u)) { return u; }
  return mf_log(u) * x / (u - 1.0lf);
}

// ---------------------------------------------------------------- trig
struct MfRed { y0: f64, y1: f64, n: i32, };
fn mf_two_sum_hi(a: f64, b: f64) -> vec2<f64> {
  let s = mf_o(a + b);
  let bb = s - a;
  return vec2<f64>(s, (a - (s - bb)) + (b - bb));
}

// Dekker: a*b = hi + lo exactly (no fma: it is not fused everywhere)
fn mf_split26(a: f64) -> vec2<f64> {
  let c = mf_o(134217729.0lf * a);
  let hi = mf_o(c - (c - a));
  return vec2<f64>(hi, a - hi);
}
fn mf_two_prod(a: f64, b: f64) -> vec2<f64> {
  let p = mf_o(a * b);
  let sa = mf_split26(a);
  let sb = mf_split26(b);
  let err = ((sa.x * sb.x - p) + sa.x * sb.y + sa.y * sb.x) + sa.y * sb.y;
  return vec2<f64>(p, err);
}

""" + PAYNE_HANEK_F64 + r"""
fn mf_rem_pio2(x: f64) -> MfRed {
  // Cody-Waite with pi/2 in 24-bit chunks: k * chunk is exact for k < 2^29;
  // Payne-Hanek (trig_reduction.py) from 2^28 on, NaN for +-Inf and NaN
  if (abs(x) <= 0.7853981633974483lf) { return MfRed(x, 0.0lf, 0i); }
  if (!(abs(x) < 268435456.0lf)) {
    if (mf_isinf(x) || mf_isnan(x)) { return MfRed(mf_nan(), 0.0lf, 0i); }
    return mf_rem_pio2_large(x);
  }
  let k = round(x * 0.6366197723675814lf);
  var h = x - k * 1.570796251296997lf;
  var l = 0.0lf;
  var t = mf_two_sum_hi(h, -(k * 7.549789415861596e-08lf));
  h = t.x; l = l + t.y;
  t = mf_two_sum_hi(h, -(k * 5.390302529957765e-15lf));
  h = t.x; l = l + t.y;
  t = mf_two_sum_hi(h, -(k * 3.282003415807913e-22lf));
  h = t.x; l = l + t.y;
  l = l - k * 1.270655753080676e-29lf - k * 1.2293331171481208e-36lf;
  let y0 = mf_o(h + l);
  let y1 = l - (y0 - h);
  let q = k - 4.0lf * floor(k * 0.25lf);
  return MfRed(y0, y1, i32(q));
}

fn mf_ksin(x: f64, y: f64) -> f64 {
  let z = x * x;
  let v = z * x;
  let r = 0.00833333333332249lf + z * (-0.00019841269829857949lf + z * (2.7557313707070068e-06lf
          + z * (-2.5050760253406863e-08lf + z * 1.58969099521155e-10lf)));
  return x - ((z * (0.5lf * y - v * r) - y) - v * -0.16666666666666632lf);
}

fn mf_kcos(x: f64, y: f64) -> f64 {
  let z = x * x;
  let w2 = z * z;
  let r = z * (0.0416666666666666lf + z * (-0.001388888888887411lf + z * 2.480158728947673e-05lf))
          + w2 * w2 * (-2.7557314351390663e-07lf + z * (2.087572321298175e-09lf + z * -1.1359647557788195e-11lf));
  let hz = 0.5lf * z;
  let w = 1.0lf - hz;
  return w + (((1.0lf - w) - hz) + (z * r - x * y));
}

fn mf_sin(x: f64) -> f64 {
  let rd = mf_rem_pio2(x);
  switch (rd.n) {
    case 0i: { return mf_ksin(rd.y0, rd.y1); }
    case 1i: { return mf_kcos(rd.y0, rd.y1); }
    case 2i: { return -mf_ksin(rd.y0, rd.y1); }
    default: { return -mf_kcos(rd.y0, rd.y1); }
  }
}

fn mf_cos(x: f64) -> f64 {
  let rd = mf_rem_pio2(x);
  switch (rd.n) {
    case 0i: { return mf_kcos(rd.y0, rd.y1); }
    case 1i: { return -mf_ksin(rd.y0, rd.y1); }
    case 2i: { return -mf_kcos(rd.y0, rd.y1); }
    default: { return mf_ksin(rd.y0, rd.y1); }
  }
}

fn mf_tan(x: f64) -> f64 {
  let rd = mf_rem_pio2(x);
  let s = mf_ksin(rd.y0, rd.y1);
  let c = mf_kcos(rd.y0, rd.y1);
  if ((rd.n & 1i) == 0i) { return s / c; }
  return -c / s;
}

fn mf_atan(x0: f64) -> f64 {
  if (mf_isnan(x0)) { return x0; }
  let ax = abs(x0);
  var x = ax;
  var id = -1i;
  if (ax >= 7.378697629483821e19lf) {
    let r = 1.5707963267948966lf + 6.123233995736766e-17lf;
    if (x0 < 0.0lf) { return -r; }
    return r;
  }
  if (ax < 0.4375lf) {
    if (ax < 7.450580596923828e-09lf) { return x0; }
  } else if (ax < 1.1875lf) {
    if (ax < 0.6875lf) { id = 0i; x = (2.0lf * ax - 1.0lf) / (2.0lf + ax); }
    else { id = 1i; x = (ax - 1.0lf) / (ax + 1.0lf); }
  } else if (ax < 2.4375lf) { id = 2i; x = (ax - 1.5lf) / (1.0lf + 1.5lf * ax); }
  else { id = 3i; x = -1.0lf / ax; }
  let z = x * x;
  let w2 = z * z;
  let s1 = z * (0.3333333333333293lf + w2 * (0.14285714272503466lf + w2 * (0.09090887133436507lf
           + w2 * (0.06661073137387531lf + w2 * (0.049768779946159324lf + w2 * 0.016285820115365782lf)))));
  let s2 = w2 * (-0.19999999999876483lf + w2 * (-0.11111110405462356lf + w2 * (-0.0769187620504483lf
           + w2 * (-0.058335701337905735lf + w2 * -0.036531572744216916lf))));
  if (id < 0i) { return x0 - x0 * (s1 + s2); }
  var hi = 0.4636476090008061lf;
  var lo = 2.2698777452961687e-17lf;
  if (id == 1i) { hi = 0.7853981633974483lf; lo = 3.061616997868383e-17lf; }
  if (id == 2i) { hi = 0.982793723247329lf; lo = 1.3903311031230998e-17lf; }
  if (id == 3i) { hi = 1.5707963267948966lf; lo = 6.123233995736766e-17lf; }
  let r = hi - ((x * (s1 + s2) - lo) - x);
  if (x0 < 0.0lf) { return -r; }
  return r;
}

fn mf_atan2(y: f64, x: f64) -> f64 {
  if (mf_isnan(x) || mf_isnan(y)) { return mf_nan(); }   // not x + y: folds to 0 for y = -x
  let pi = 3.141592653589793lf;
  let pi_lo = 1.2246467991473532e-16lf;
  if (y == 0.0lf) {
    if (x > 0.0lf || (x == 0.0lf && 1.0lf / x > 0.0lf)) { return y; }
    if (1.0lf / y > 0.0lf) { return pi; }
    return -pi;
  }
  if (x == 0.0lf) { if (y > 0.0lf) { return 1.5707963267948966lf; } return -1.5707963267948966lf; }
  if (mf_isinf(x) && mf_isinf(y)) {
    var r = 0.7853981633974483lf;
    if (x < 0.0lf) { r = 2.356194490192345lf; }
    if (y < 0.0lf) { return -r; }
    return r;
  }
  let a = mf_atan(abs(y / x));
  var r = a;
  if (x < 0.0lf) { r = pi - (a - pi_lo); }
  if (y < 0.0lf) { return -r; }
  return r;
}

fn mf_asin(x: f64) -> f64 {
  if (abs(x) > 1.0lf || mf_isnan(x)) { return mf_nan(); }
  if (abs(x) < 7.450580596923828e-09lf) { return x; }
  return mf_atan2(x, sqrt((1.0lf - x) * (1.0lf + x)));
}

fn mf_acos(x: f64) -> f64 {
  if (abs(x) > 1.0lf || mf_isnan(x)) { return mf_nan(); }
  return 2.0lf * mf_atan2(sqrt(1.0lf - x), sqrt(1.0lf + x));
}

// ---------------------------------------------------------------- hyperbolic
fn mf_sinh(x: f64) -> f64 {
  let ax = abs(x);
  if (mf_isnan(x)) { return x; }
  var r = 0.0lf;
  if (ax < 22.0lf) {
    let t = mf_expm1(ax);
    if (ax < 1.0lf) { r = 0.5lf * (2.0lf * t - t * t / (t + 1.0lf)); }
    else { r = 0.5lf * (t + t / (t + 1.0lf)); }
  } else if (ax < 709.7822265625lf) { r = 0.5lf * mf_exp(ax); }
  else { let w = mf_exp(0.5lf * ax); r = mf_o(0.5lf * w) * w; }
  if (x < 0.0lf) { return -r; }
  return r;
}

fn mf_cosh(x: f64) -> f64 {
  let ax = abs(x);
  if (mf_isnan(x)) { return x; }
  if (ax < 0.34657359027997264lf) {
    let t = mf_expm1(ax);
    let w = 1.0lf + t;
    return 1.0lf + (t * t) / (w + w);
  }
  if (ax < 22.0lf) { let t = mf_exp(ax); return 0.5lf * t + 0.5lf / t; }
  if (ax < 709.7822265625lf) { return 0.5lf * mf_exp(ax); }
  let w = mf_exp(0.5lf * ax);
  return mf_o(0.5lf * w) * w;
}

fn mf_tanh(x: f64) -> f64 {
  if (mf_isnan(x)) { return x; }
  let ax = abs(x);
  var z = 1.0lf;
  if (ax < 22.0lf) {
    if (ax < 5.551115123125783e-17lf) { return x; }
    if (ax >= 1.0lf) { let t = mf_expm1(2.0lf * ax); z = 1.0lf - 2.0lf / (t + 2.0lf); }
    else { let t = mf_expm1(-2.0lf * ax); z = -t / (t + 2.0lf); }
  }
  if (x < 0.0lf) { return -z; }
  return z;
}

fn mf_asinh(x: f64) -> f64 {
  if (mf_isnan(x) || mf_isinf(x)) { return x; }
  let ax = abs(x);
  var r = 0.0lf;
  if (ax > 268435456.0lf) { r = mf_log(ax) + 0.6931471805599453lf; }
  else if (ax > 2.0lf) { r = mf_log(2.0lf * ax + 1.0lf / (sqrt(ax * ax + 1.0lf) + ax)); }
  else if (ax < 3.725290298461914e-09lf) { return x; }
  else { let t = ax * ax; r = mf_log1p(ax + t / (1.0lf + sqrt(1.0lf + t))); }
  if (x < 0.0lf) { return -r; }
  return r;
}

fn mf_acosh(x: f64) -> f64 {
  if (x < 1.0lf || mf_isnan(x)) { return mf_nan(); }
  if (mf_isinf(x)) { return x; }
  if (x > 268435456.0lf) { return mf_log(x) + 0.6931471805599453lf; }
  if (x > 2.0lf) { return mf_log(2.0lf * x - 1.0lf / (x + sqrt(x * x - 1.0lf))); }
  let t = x - 1.0lf;
  return mf_log1p(t + sqrt(2.0lf * t + t * t));
}

fn mf_atanh(x: f64) -> f64 {
  let ax = abs(x);
  if (ax > 1.0lf || mf_isnan(x)) { return mf_nan(); }
  if (ax == 1.0lf) { if (x > 0.0lf) { return mf_inf(); } return -mf_inf(); }
  var r = 0.0lf;
  if (ax < 0.5lf) { let t = ax + ax; r = 0.5lf * mf_log1p(t + t * ax / (1.0lf - ax)); }
  else { r = 0.5lf * mf_log1p((ax + ax) / (1.0lf - ax)); }
  if (x < 0.0lf) { return -r; }
  return r;
}

// ---------------------------------------------------------------- power
fn mf_is_int(y: f64) -> bool { return floor(y) == y && !mf_isinf(y); }
fn mf_is_odd_int(y: f64) -> bool {
  return mf_is_int(y) && abs(y) < 9007199254740992.0lf && floor(y * 0.5lf) * 2.0lf != y;
}

fn mf_flip(v: f64, flip: bool) -> f64 { return select(v, -v, flip); }

fn mf_pow(x: f64, y: f64) -> f64 {
  if (y == 0.0lf || x == 1.0lf) { return 1.0lf; }   // C / NumPy (the host path)
  if (mf_isnan(x) || mf_isnan(y)) { return mf_nan(); }   // not x + y: folds to 0 for y = -x
  if (y == 1.0lf) { return x; }
  if (y == 2.0lf) { return x * x; }
  if (y == 0.5lf && !(x == 0.0lf) && !mf_isinf(x) && x > 0.0lf) { return sqrt(x); }
  if (y == -1.0lf) { return 1.0lf / x; }
  let ax = abs(x);
  let neg = x < 0.0lf || (x == 0.0lf && 1.0lf / x < 0.0lf);
  if (neg && !mf_is_int(y) && !mf_isinf(y)) { return mf_nan(); }
  // the sign is applied by negation: NVIDIA's Vulkan compiler returns
  // garbage for (-1 or 1) * Inf (drivers may assume no Inf unless told)
  let flip = neg && mf_is_odd_int(y);
  if (mf_isinf(y)) {
    if (ax == 1.0lf) { return 1.0lf; }
    if ((ax > 1.0lf) == (y > 0.0lf)) { return mf_inf(); }
    return 0.0lf;
  }
  if (ax == 0.0lf) { if (y > 0.0lf) { return mf_flip(0.0lf, flip); } return mf_flip(mf_inf(), flip); }
  if (mf_isinf(ax)) { if (y > 0.0lf) { return mf_flip(mf_inf(), flip); } return mf_flip(0.0lf, flip); }
  // small integer exponents: binary powering (exact-ish, keeps x.^3 == x*x*x)
  if (mf_is_int(y) && abs(y) <= 64.0lf) {
    var n = i32(abs(y));
    var b = ax;
    var r = 1.0lf;
    loop {
      if (n == 0i) { break; }
      if ((n & 1i) == 1i) { r = r * b; }
      b = b * b;
      n = n >> 1u;
    }
    if (y < 0.0lf) { r = 1.0lf / r; }
    return mf_flip(r, flip);
  }
  // log(ax) as double-double: k*ln2 (exact hi part) + 2s + s*R with s split
  let p = mf_log_parts(ax);
  let d = mf_o(2.0lf + p.f);
  let d_lo = (2.0lf - d) + p.f;
  let s_hi = p.s;
  let sd = mf_two_prod(s_hi, d);
  // each difference opaque: NVIDIA's compiler reassociates (f - x) - err
  // into f - (x + err), which loses err
  let s_r1 = mf_o(p.f - sd.x);
  let s_r2 = mf_o(s_r1 - sd.y);
  let s_lo = (s_r2 - s_hi * d_lo) / d;
  let lm = mf_two_sum_hi(2.0lf * s_hi, 2.0lf * s_lo + p.s * p.r);
  let kh = p.k * 0.6931471803691238lf;
  let kl = p.k * 1.9082149292705877e-10lf;
  let t = mf_two_sum_hi(kh, lm.x);
  let lh = t.x;
  let ll = t.y + lm.y + kl;
  let l2 = mf_two_sum_hi(lh, ll);
  // y * log(ax) as double-double
  let pp = mf_two_prod(y, l2.x);
  let ph = pp.x;
  let pl = pp.y + y * l2.y;
  if (ph > 709.782712893384lf) { return mf_flip(mf_inf(), flip); }
  if (ph < -745.1332191019412lf) { return mf_flip(0.0lf, flip); }
  let e = mf_exp(ph);
  return mf_flip(e + e * pl, flip);
}
"""

#: f64 unary ops implemented here: op name -> WGSL function
F64_UNARY_FUNCS = {
    "exp": "mf_exp", "expm1": "mf_expm1", "log": "mf_log", "log2": "mf_log2",
    "log10": "mf_log10", "log1p": "mf_log1p", "sin": "mf_sin", "cos": "mf_cos",
    "tan": "mf_tan", "asin": "mf_asin", "acos": "mf_acos", "atan": "mf_atan",
    "sinh": "mf_sinh", "cosh": "mf_cosh", "tanh": "mf_tanh", "asinh": "mf_asinh",
    "acosh": "mf_acosh", "atanh": "mf_atanh",
}
