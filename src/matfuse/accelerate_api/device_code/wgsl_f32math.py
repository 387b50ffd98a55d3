"""Single-precision functions whose WGSL builtins lose accuracy near zero.

Drivers evaluate f32 ``tanh``/``sinh``/``asinh`` by their exponential and
logarithm formulas: for |x| << 1 those cancel (lavapipe gives
``tanh(single(-2.4e-10)) = -3e-8``, a relative error of 121, and
``asinh(1e-6) = 0``), ``exp(x) - 1`` loses the bits of small ``expm1``
arguments, and lavapipe's ``atan`` is off by 2e-5 relative. NVIDIA's Vulkan
driver evaluates f32 ``sin``/``cos`` with the hardware approximation (absolute
error ~1e-7): near their zeros the relative error reached 3.2e7 ulps on the
H100 (benchmarks/elementwise/accuracy.py), so these have own versions too. MATLAB's
single results are within a few ulps, so these use Cephes' single-precision
polynomials on the small range and the formulas only where they are exact
enough. Largest errors against float64 on lavapipe
(tests/accelerate/providers/test_wgpu_f32math.py, f32 ulps): sin 1.8, cos 1.9,
tan 2.8 (|x| <= 8192), tanh 1.4, asinh 2.5, atan 2.3; sinh and expm1 7.8 for
|x| <= 10, where the driver's own f32 ``exp`` (exp2 of x*log2(e), errors
growing like |x| ulps: 56 at |x| = 69) dominates - left to the driver.
"""

from __future__ import annotations

from matfuse.accelerate_api.device_code.wgsl_trig_reduction import PAYNE_HANEK_F32

F32_MATH = PAYNE_HANEK_F32 + """
fn mf32_tanh(x: f32) -> f32 {
  let ax = abs(x);
  if (ax > 0.625f) {
    let s = exp(2.0f * ax);
    let r = 1.0f - 2.0f / (s + 1.0f);
    return select(r, -r, x < 0.0f);
  }
  let z = x * x;
  let p = (((-5.70498872745e-3f * z + 2.06390887954e-2f) * z - 5.37397155531e-2f) * z
           + 1.33314422036e-1f) * z - 3.33332819422e-1f;
  // select keeps -0 (x + x*z*p would round it to +0)
  return select(x + x * z * p, x, z == 0.0f);
}
fn mf32_sinh(x: f32) -> f32 {
  let ax = abs(x);
  if (ax <= 1.0f) {
    let z = x * x;
    let p = (2.03721912945e-4f * z + 8.33028376239e-3f) * z + 1.66667160211e-1f;
    return select(x + x * z * p, x, z == 0.0f);
  }
  var r: f32;
  if (ax > 80.0f) {
    // exp(ax)/2 without overflowing exp(ax) first
    r = exp(ax - 0.69314718f);
  } else {
    let e = exp(ax);
    r = 0.5f * e - 0.5f / e;
  }
  return select(r, -r, x < 0.0f);
}
fn mf32_asinh(x: f32) -> f32 {
  let ax = abs(x);
  var r: f32;
  if (ax > 1500.0f) {
    r = log(ax) + 0.69314718f;
  } else if (ax < 0.5f) {
    let z = x * x;
    let p = ((2.0122003309e-2f * z - 4.2699340972e-2f) * z + 7.4847586088e-2f) * z
            - 1.6666288134e-1f;
    return select(x + x * z * p, x, z == 0.0f);
  } else {
    r = log(ax + sqrt(ax * ax + 1.0f));
  }
  return select(r, -r, x < 0.0f);
}
// sin/cos/tan: Cody-Waite reduction by pi/4 in six 10-bit parts (every
// y * part is exact for y < 2^14, so no fma is needed: Vulkan may split
// it) and Cephes' single-precision polynomials; |x| > 8192 (and inf) reduce
// by Payne-Hanek (trig_reduction.py).
fn mf32_octant(ax: f32) -> vec2<f32> {
  var j = u32(ax * 1.2732395447351628f);
  var y = f32(j);
  if ((j & 1u) == 1u) { j = j + 1u; y = y + 1.0f; }
  var r = ax - y * 0.78515625f;
  r = r - y * 0.00024199485778808594f;
  r = r - y * -8.149072527885437e-08f;
  r = r - y * 3.041122909053229e-11f;
  r = r - y * -2.5729418595688003e-14f;
  r = r - y * 2.859583229930518e-18f;
  return vec2<f32>(r, f32(j & 7u));
}
fn mf32_sin_poly(r: f32) -> f32 {
  let z = r * r;
  return ((-1.9515295891e-4f * z + 8.3321608736e-3f) * z - 1.6666654611e-1f) * z * r + r;
}
fn mf32_cos_poly(r: f32) -> f32 {
  let z = r * r;
  return ((2.443315711809948e-5f * z - 1.388731625493765e-3f) * z + 4.166664568298827e-2f) * z * z
         - 0.5f * z + 1.0f;
}
fn mf32_sin(x: f32) -> f32 {
  let ax = abs(x);
  if (ax > 8192.0f) { return mf32_trig_large(x, 0u); }
  if (x == 0.0f) { return x; }
  let o = mf32_octant(ax);
  var j = u32(o.y);
  var neg = x < 0.0f;
  if (j > 3u) { neg = !neg; j = j - 4u; }
  var v = mf32_sin_poly(o.x);
  if (j == 1u || j == 2u) { v = mf32_cos_poly(o.x); }
  return select(v, -v, neg);
}
fn mf32_cos(x: f32) -> f32 {
  let ax = abs(x);
  if (ax > 8192.0f) { return mf32_trig_large(x, 1u); }
  let o = mf32_octant(ax);
  var j = u32(o.y);
  var neg = false;
  if (j > 3u) { neg = !neg; j = j - 4u; }
  if (j > 1u) { neg = !neg; }
  var v = mf32_cos_poly(o.x);
  if (j == 1u || j == 2u) { v = mf32_sin_poly(o.x); }
  return select(v, -v, neg);
}
fn mf32_tan_poly(r: f32) -> f32 {
  let z = r * r;
  if (abs(r) <= 1e-4f) { return r; }
  return (((((9.38540185543e-3f * z + 3.11992232697e-3f) * z + 2.44301354525e-2f) * z
         + 5.34112807005e-2f) * z + 1.33387994085e-1f) * z + 3.33331568548e-1f) * z * r + r;
}
fn mf32_tan(x: f32) -> f32 {
  let ax = abs(x);
  if (ax > 8192.0f) { return mf32_trig_large(x, 2u); }
  if (x == 0.0f) { return x; }
  let o = mf32_octant(ax);
  var v = mf32_tan_poly(o.x);
  if ((u32(o.y) & 2u) == 2u) { v = -1.0f / v; }
  return select(v, -v, x < 0.0f);
}
// x.^n for integer |n| <= 64 by repeated squaring (a few roundings): the
// driver's pow is exp2(n * log2(x)), off by tens of ulps for large |x|
fn mf32_is_small_int(b: f32) -> bool { return floor(b) == b && abs(b) <= 64.0f; }
fn mf32_ipow(a: f32, b: f32) -> f32 {
  var n = u32(abs(b));
  var base = a;
  var r = 1.0f;
  loop {
    if (n == 0u) { break; }
    if ((n & 1u) == 1u) { r = r * base; }
    n = n >> 1u;
    if (n != 0u) { base = base * base; }
  }
  if (b < 0.0f) { return 1.0f / r; }
  return r;
}
fn mf32_expm1(x: f32) -> f32 {
  if (abs(x) < 0.5f) {
    // Taylor series to x^9/9! (below half an ulp on |x| < 0.5)
    let p = ((((((((2.7557319e-6f * x + 2.4801587e-5f) * x + 1.9841270e-4f) * x
             + 1.3888889e-3f) * x + 8.3333333e-3f) * x + 4.1666667e-2f) * x
             + 1.6666667e-1f) * x + 0.5f) * x);
    return select(x + x * p, x, x == 0.0f);
  }
  return exp(x) - 1.0f;
}
fn mf32_atan(x: f32) -> f32 {
  var ax = abs(x);
  var base = 0.0f;
  if (ax > 2.414213562373095f) {
    base = 1.5707963267948966f;
    ax = -1.0f / ax;
  } else if (ax > 0.4142135623730950f) {
    base = 0.7853981633974483f;
    ax = (ax - 1.0f) / (ax + 1.0f);
  }
  let z = ax * ax;
  let p = ((8.05374449538e-2f * z - 1.38776856032e-1f) * z + 1.99777106478e-1f) * z
          - 3.33329491539e-1f;
  let r = base + (ax + ax * z * p);
  if (x < 0.0f) { return -r; }
  if (x == 0.0f) { return x; }
  return r;
}
"""

#: MATLAB function -> WGSL function of F32_MATH
F32_UNARY_FUNCS = {"tanh": "mf32_tanh", "sinh": "mf32_sinh", "asinh": "mf32_asinh", "atan": "mf32_atan",
                   "expm1": "mf32_expm1", "sin": "mf32_sin", "cos": "mf32_cos", "tan": "mf32_tan"}
