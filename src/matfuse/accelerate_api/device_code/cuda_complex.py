"""CUDA C helper functions of complex values (``double2``/``float2``: x the
real part, y the imaginary part) that ``complex_table`` expressions call:
the same formulas as ``wgsl_complex`` (NumPy's: textbook products, Smith's
quotients with NumPy's zero-divisor case, ``abs`` scaled by the larger part,
C99 exp/log/sqrt, log and sqrt scaled above 1e300 (f64) / 1e36 (f32), log
near |z| = 1 from an exact x^2 + y^2 - 1; the forward trigonometric and
hyperbolic functions, log2/log10, expm1 and log1p as NumPy computes them).

Products that feed a sum are rounded on their own (``__dmul_rn``/
``__fmul_rn``): the textbook formulas of NumPy's scalar loops, which the
compiler would otherwise contract into fused multiply-adds (rounded once, so
overflow and subnormal results would depend on the compiler). Only built-ins
that the tests' host prelude also defines are used, so the source compiles
with NVRTC/nvcc and, for the CPU tests, with g++.
"""

from __future__ import annotations

_TEMPLATE = """
__device__ __forceinline__ {C} cx_make({T} x, {T} y) {{ {C} r; r.x = x; r.y = y; return r; }}
__device__ __forceinline__ bool cx_isnan({T} x) {{ return x != x; }}
__device__ __forceinline__ bool cx_isinf({T} x) {{ return fabs{f}(x) > {maxf}; }}
__device__ __forceinline__ bool cx_eq({C} a, {C} b) {{ return a.x == b.x && a.y == b.y; }}
__device__ __forceinline__ {C} cx_add({C} a, {C} b) {{ return cx_make(a.x + b.x, a.y + b.y); }}
__device__ __forceinline__ {C} cx_sub({C} a, {C} b) {{ return cx_make(a.x - b.x, a.y - b.y); }}
__device__ __forceinline__ {C} cx_neg({C} a) {{ return cx_make(-a.x, -a.y); }}
__device__ __forceinline__ {C} cx_mul({C} a, {C} b) {{
  return cx_make({mul}(a.x, b.x) - {mul}(a.y, b.y), {mul}(a.x, b.y) + {mul}(a.y, b.x));
}}
__device__ __forceinline__ {C} cx_div({C} a, {C} b) {{
  const {T} br = fabs{f}(b.x), bi = fabs{f}(b.y);
  if (br >= bi) {{
    if (br == {zero} && bi == {zero}) return cx_make(a.x / br, a.y / br);
    const {T} rat = b.y / b.x;
    const {T} scl = {one} / (b.x + {mul}(b.y, rat));
    return cx_make({mul}(a.x + {mul}(a.y, rat), scl), {mul}(a.y - {mul}(a.x, rat), scl));
  }}
  const {T} rat = b.x / b.y;
  const {T} scl = {one} / (b.y + {mul}(b.x, rat));
  return cx_make({mul}({mul}(a.x, rat) + a.y, scl), {mul}({mul}(a.y, rat) - a.x, scl));
}}
// hypot without overflow; an infinite part wins over NaN (C99, NumPy)
__device__ __forceinline__ {T} cx_abs({C} a) {{
  const {T} x = fabs{f}(a.x), y = fabs{f}(a.y);
  if (cx_isinf(x) || cx_isinf(y)) return {inf};
  if (cx_isnan(x) || cx_isnan(y)) return x + y;
  const {T} m = x > y ? x : y;
  if (m == {zero}) return m;
  const {T} r = (x > y ? y : x) / m;
  return {mul}(m, sqrt{f}({one} + {mul}(r, r)));
}}
__device__ __forceinline__ {T} cx_angle({C} a) {{ return atan2{f}(a.y, a.x); }}
// NumPy's sign: x / abs(x) (a complex quotient: NaN parts for a NaN
// abs), 0 at 0
__device__ __forceinline__ {C} cx_sign({C} a) {{
  const {T} m = cx_abs(a);
  if (cx_isnan(m)) return cx_make(m, m);
  if (m == {zero}) return cx_make({zero}, {zero});
  return cx_div(a, cx_make(m, {zero}));
}}
// exp, log and the principal sqrt as C99 (NumPy): exp(x + 0i) keeps a zero
// imaginary part, sqrt's imaginary part takes the sign of y (-0 included)
__device__ __forceinline__ {C} cx_exp({C} a) {{
  if (cx_isinf(a.x) && (cx_isinf(a.y) || cx_isnan(a.y))) {{
    // exp(+Inf + i*(Inf or NaN)) is Inf + NaN*i, exp(-Inf + ...) zero (C99)
    return a.x > {zero} ? cx_make(a.x, {nan}) : cx_make({zero}, {zero});
  }}
  if (a.x > {big_exp} && !cx_isinf(a.x) && a.y != {zero}) {{
    // exp(x) overflows before the product with cos(y) or sin(y) would
    const {T} e = exp{f}(a.x * ({T})0.5);
    return cx_make({mul}({mul}(cos{f}(a.y), e), e), {mul}({mul}(sin{f}(a.y), e), e));
  }}
  const {T} m = exp{f}(a.x);
  if (a.y == {zero}) return cx_make(m, a.y);
  return cx_make({mul}(m, cos{f}(a.y)), {mul}(m, sin{f}(a.y)));
}}
// (a^2, its rounding error): Dekker's exact product, no fused multiply-add
__device__ __forceinline__ {C} cx_two_sq({T} a) {{
  const {T} p = {mul}(a, a);
  const {T} c = {mul}({split}, a);
  const {T} hi = c - (c - a);
  const {T} lo = a - hi;
  return cx_make(p, (({mul}(hi, hi) - p) + {mul}(({T})2 * hi, lo)) + {mul}(lo, lo));
}}
// x^2 + y^2 - 1 from the exact squares, the sums' errors kept (Knuth's
// two-sum): the real part of log near |z| = 1 without cancellation
__device__ __forceinline__ {T} cx_x2y2m1({T} x, {T} y) {{
  const {C} px = cx_two_sq(x), py = cx_two_sq(y);
  const {T} s = px.x - {one};
  const {T} sb = s - px.x;
  const {T} e1 = (px.x - (s - sb)) + (-{one} - sb);
  const {T} t = s + py.x;
  const {T} tb = t - s;
  const {T} e2 = (s - (t - tb)) + (py.x - tb);
  return t + (((e1 + e2) + px.y) + py.y);
}}
__device__ __forceinline__ {C} cx_log({C} a) {{
  const {T} x = fabs{f}(a.x), y = fabs{f}(a.y);
  const {T} m = x > y ? x : y;
  if (m > {big} && !cx_isinf(m)) {{
    // |z| may overflow: log(m) + log(1 + r^2) / 2
    const {T} r = (x > y ? y : x) / m;
    return cx_make(log{f}(m) + ({T})0.5 * log{f}({one} + {mul}(r, r)), cx_angle(a));
  }}
  if (m > {zero} && m < {tiny}) {{
    // subnormal parts would round |z|: the log of z * 2^{scale_exp} less {scale_exp} ln 2
    const {T} h = cx_abs(cx_make(a.x * {scale}, a.y * {scale}));
    return cx_make(log{f}(h) - {scale_log}, cx_angle(a));
  }}
  const {T} h = cx_abs(a);
  if (h > ({T})0.71 && h < ({T})1.41) {{
    return cx_make(({T})0.5 * log1p{f}(cx_x2y2m1(m, x > y ? y : x)), cx_angle(a));
  }}
  return cx_make(log{f}(h), cx_angle(a));
}}
// NumPy's power: 1 for a zero exponent, 0 or NaN for a zero base (by the
// exponent's real part), a
// product of squares for an integer exponent below 100 in magnitude (its
// reciprocal for a negative one), else exp(b * log(a))
__device__ __forceinline__ {C} cx_pow({C} a, {C} b) {{
  if (b.x == {zero} && b.y == {zero}) return cx_make({one}, {zero});
  if (a.x == {zero} && a.y == {zero}) {{
    if (b.x > {zero}) return cx_make({zero}, {zero});
    return cx_make({nan}, {nan});
  }}
  if (b.y == {zero} && b.x == floor{f}(b.x) && fabs{f}(b.x) < ({T})100) {{
    const int n = (int)b.x;
    if (n == 1) return a;
    if (n == 2) return cx_mul(a, a);
    if (n == 3) return cx_mul(a, cx_mul(a, a));
    const int m = n < 0 ? -n : n;
    {C} acc = cx_make({one}, {zero}), p = a;
    for (int mask = 1; ; mask <<= 1) {{
      if (m & mask) acc = cx_mul(acc, p);
      if (m < (mask << 1)) break;
      p = cx_mul(p, p);
    }}
    return b.x < {zero} ? cx_div(cx_make({one}, {zero}), acc) : acc;
  }}
  return cx_exp(cx_mul(b, cx_log(a)));
}}
__device__ __forceinline__ {C} cx_sqrt({C} a) {{
  if (a.x == {zero} && a.y == {zero}) return cx_make({zero}, a.y);
  if (cx_isinf(a.y)) return cx_make(fabs{f}(a.y), a.y);
  if (cx_isnan(a.x) || cx_isnan(a.y)) return cx_make(a.x + a.y, a.x + a.y);
  // near the largest values (|x| + |z|) / 2 overflows: there the root of
  // z / 16 (exact scaling) times 4
  const bool big = fabs{f}(a.x) > {big} || fabs{f}(a.y) > {big};
  const {C} s = big ? cx_make(a.x * ({T})0.0625, a.y * ({T})0.0625) : a;
  const {T} t = sqrt{f}((fabs{f}(s.x) + cx_abs(s)) * ({T})0.5);
  const bool negative = s.y < {zero} || (s.y == {zero} && {one} / s.y < {zero});
  const {C} r = s.x >= {zero} ? cx_make(t, s.y / (({T})2 * t))
                              : cx_make(fabs{f}(s.y) / (({T})2 * t), negative ? -t : t);
  return big ? cx_make(r.x * ({T})4, r.y * ({T})4) : r;
}}
// sinh, cosh and tanh with C99 Annex G's special values as NumPy gives
// them: the real functions of the parts, |x| above {big_exp} through
// exp(|x|/2)^2 (the products would overflow in between); sin, cos and tan
// as NumPy: sin(x + iy) and tan(x + iy) are sinh(y + ix) and tanh(y + ix)
// with the parts swapped, cos(z) = cosh(iz)
__device__ __forceinline__ {C} cx_sinh({C} a) {{
  const {T} x = a.x, y = a.y;
  const {T} sx = copysign{f}({one}, x);
  if (cx_isnan(x)) return cx_make(x, y == {zero} ? y : {nan});
  if (cx_isinf(y) || cx_isnan(y)) {{
    if (cx_isinf(x)) return cx_make(fabs{f}(x), {nan});
    return cx_make(x == {zero} ? x : {nan}, {nan});
  }}
  if (y == {zero}) return cx_make(sinh{f}(x), y);
  // below the smallest normal value sin(y) is y and cos(y) 1 (glibc)
  const bool small = fabs{f}(y) < {min_normal};
  const {T} s = small ? y : sin{f}(y), c = small ? {one} : cos{f}(y);
  if (cx_isinf(x)) return cx_make(sx * copysign{f}({inf}, c), copysign{f}({inf}, s));
  if (fabs{f}(x) > {big_exp}) {{
    const {T} e = exp{f}(fabs{f}(x) * ({T})0.5);
    return cx_make(sx * {mul}({mul}(c, e) * ({T})0.5, e), {mul}({mul}(s, e) * ({T})0.5, e));
  }}
  return cx_make({mul}(sinh{f}(x), c), {mul}(cosh{f}(x), s));
}}
__device__ __forceinline__ {C} cx_cosh({C} a) {{
  const {T} x = a.x, y = a.y;
  const {T} sx = copysign{f}({one}, x);
  if (cx_isnan(x)) return cx_make(x, y == {zero} ? y : {nan});
  if (cx_isinf(y) || cx_isnan(y)) {{
    if (cx_isinf(x)) return cx_make({inf}, {nan});
    return cx_make({nan}, x == {zero} ? {zero} : {nan});
  }}
  if (y == {zero}) return cx_make(cosh{f}(x), sx * y);
  // below the smallest normal value sin(y) is y and cos(y) 1 (glibc)
  const bool small = fabs{f}(y) < {min_normal};
  const {T} s = small ? y : sin{f}(y), c = small ? {one} : cos{f}(y);
  if (cx_isinf(x)) return cx_make(copysign{f}({inf}, c), copysign{f}({inf}, s) * sx);
  if (fabs{f}(x) > {big_exp}) {{
    const {T} e = exp{f}(fabs{f}(x) * ({T})0.5);
    return cx_make({mul}({mul}(c, e) * ({T})0.5, e), sx * {mul}({mul}(s, e) * ({T})0.5, e));
  }}
  return cx_make({mul}(cosh{f}(x), c), {mul}(sinh{f}(x), s));
}}
// Kahan's tanh (overflow-safe): with t = tan(y), b = 1 + t^2, s = sinh(x),
// (b s sqrt(1 + s^2) + i t) / (1 + b s^2); for |x| above {big_tanh} the real
// part is +-1 and the imaginary part 4 sin(y) cos(y) exp(-2|x|)
__device__ __forceinline__ {C} cx_tanh({C} a) {{
  const {T} x = a.x, y = a.y;
  if (cx_isinf(x)) {{
    const bool wide = !cx_isinf(y) && !cx_isnan(y) && fabs{f}(y) > {one};
    return cx_make(copysign{f}({one}, x), copysign{f}({zero}, wide ? {mul}(sin{f}(y), cos{f}(y)) : y));
  }}
  if (cx_isnan(x)) return cx_make(x, y == {zero} ? y : {nan});
  if (cx_isinf(y) || cx_isnan(y)) return cx_make(x == {zero} ? x : {nan}, {nan});
  if (fabs{f}(x) >= {big_tanh}) {{
    const {T} e = exp{f}(-fabs{f}(x));
    return cx_make(copysign{f}({one}, x), {mul}({mul}({mul}(({T})4 * sin{f}(y), cos{f}(y)), e), e));
  }}
  const {T} t = tan{f}(y);
  const {T} b = {one} + {mul}(t, t);
  const {T} s = sinh{f}(x);
  const {T} rho = sqrt{f}({one} + {mul}(s, s));
  const {T} d = {one} + {mul}({mul}(b, s), s);
  return cx_make({mul}({mul}(b, rho), s) / d, t / d);
}}
__device__ __forceinline__ {C} cx_sin({C} a) {{ const {C} r = cx_sinh(cx_make(a.y, a.x)); return cx_make(r.y, r.x); }}
__device__ __forceinline__ {C} cx_cos({C} a) {{ return cx_cosh(cx_make(-a.y, a.x)); }}
__device__ __forceinline__ {C} cx_tan({C} a) {{ const {C} r = cx_tanh(cx_make(a.y, a.x)); return cx_make(r.y, r.x); }}
// NumPy's log2/log10: the complex log times 1/ln 2, 1/ln 10 per part
__device__ __forceinline__ {C} cx_log2({C} a) {{
  const {C} r = cx_log(a);
  return cx_make(r.x * ({T})1.4426950408889634, r.y * ({T})1.4426950408889634);
}}
__device__ __forceinline__ {C} cx_log10({C} a) {{
  const {C} r = cx_log(a);
  return cx_make(r.x * ({T})0.4342944819032518, r.y * ({T})0.4342944819032518);
}}
// NumPy's expm1: expm1(x) cos(y) - 2 sin(y/2)^2 + i exp(x) sin(y)
__device__ __forceinline__ {C} cx_expm1({C} a) {{
  const {T} h = sin{f}(a.y * ({T})0.5);
  return cx_make({mul}(expm1{f}(a.x), cos{f}(a.y)) - {mul}(({T})2 * h, h), {mul}(exp{f}(a.x), sin{f}(a.y)));
}}
// NumPy's log1p: log(hypot(x + 1, y)) + i atan2(y, x + 1)
__device__ __forceinline__ {C} cx_log1p({C} a) {{
  const {C} u = cx_make(a.x + {one}, a.y);
  return cx_make(log{f}(cx_abs(u)), cx_angle(u));
}}
"""


def complex_library(t: str) -> str:
    """Source of the complex helpers of element type ``t`` (``f32``/``f64``);
    the complex type is ``double2``/``float2``."""
    if t == "f64":
        fields = dict(T="double", C="double2", f="", mul="__dmul_rn", zero="0.0", one="1.0",
                      maxf="1.7976931348623157e308", big="1.0e300", big_exp="709.0", min_normal="2.2250738585072014e-308", big_tanh="22.0", split="134217729.0", tiny="1.0e-300", scale_exp="600",
                      scale="4.149515568880993e180", scale_log="415.88830833596719",
                      inf="__longlong_as_double(0x7ff0000000000000LL)",
                      nan="__longlong_as_double(0x7ff8000000000000LL)")
    else:
        fields = dict(T="float", C="float2", f="f", mul="__fmul_rn", zero="0.0f", one="1.0f",
                      maxf="3.4028234663852886e38f", big="1.0e36f", big_exp="88.0f", min_normal="1.1754943508222875e-38f", big_tanh="9.0f", split="4097.0f", tiny="1.0e-36f", scale_exp="64",
                      scale="18446744073709551616.0f", scale_log="44.361419555836500f",
                      inf="__int_as_float(0x7f800000)", nan="__int_as_float(0x7fc00000)")
    return _TEMPLATE.format(**fields)
