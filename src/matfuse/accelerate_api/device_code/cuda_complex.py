"""CUDA C helper functions of complex values (``double2``/``float2``: x the
real part, y the imaginary part) that ``complex_table`` expressions call:
the same formulas as ``wgsl_complex`` (NumPy's: textbook products, Smith's
quotients with NumPy's zero-divisor case, ``abs`` scaled by the larger part,
C99 exp/log/sqrt, log and sqrt scaled above 1e300 (f64) / 1e36 (f32)).

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
  const {T} m = exp{f}(a.x);
  if (a.y == {zero}) return cx_make(m, a.y);
  return cx_make({mul}(m, cos{f}(a.y)), {mul}(m, sin{f}(a.y)));
}}
__device__ __forceinline__ {C} cx_log({C} a) {{
  const {T} x = fabs{f}(a.x), y = fabs{f}(a.y);
  const {T} m = x > y ? x : y;
  if (m > {big} && !cx_isinf(m)) {{
    // |z| may overflow: log(m) + log(1 + r^2) / 2
    const {T} r = (x > y ? y : x) / m;
    return cx_make(log{f}(m) + ({T})0.5 * log{f}({one} + {mul}(r, r)), cx_angle(a));
  }}
  return cx_make(log{f}(cx_abs(a)), cx_angle(a));
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
"""


def complex_library(t: str) -> str:
    """Source of the complex helpers of element type ``t`` (``f32``/``f64``);
    the complex type is ``double2``/``float2``."""
    if t == "f64":
        fields = dict(T="double", C="double2", f="", mul="__dmul_rn", zero="0.0", one="1.0",
                      maxf="1.7976931348623157e308", big="1.0e300",
                      inf="__longlong_as_double(0x7ff0000000000000LL)",
                      nan="__longlong_as_double(0x7ff8000000000000LL)")
    else:
        fields = dict(T="float", C="float2", f="f", mul="__fmul_rn", zero="0.0f", one="1.0f",
                      maxf="3.4028234663852886e38f", big="1.0e36f",
                      inf="__int_as_float(0x7f800000)", nan="__int_as_float(0x7fc00000)")
    return _TEMPLATE.format(**fields)
