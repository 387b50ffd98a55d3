"""WGSL helper functions of complex values (``vec2<f32>``/``vec2<f64>``: x
the real part, y the imaginary part) that ``complex_table`` expressions call.

The formulas are NumPy's (the in-process provider and the host compute with
NumPy): products by the textbook formula, quotients by Smith's algorithm
with NumPy's case for a zero divisor, ``abs`` scaled by the larger part,
exp/log/sqrt as C99, sqrt scaled near the largest finite values, log near
|z| = 1 from an exact x^2 + y^2 - 1; the forward trigonometric and
hyperbolic functions, log2/log10, expm1 and log1p as NumPy computes them
(see ``complex_table``). f64 uses
matfuse's own transcendentals (``wgsl_f64math``: the drivers' f64 builtins
are wrong), f32 the accurate f32 ones (``wgsl_f32math``).
"""

from __future__ import annotations

from matfuse.accelerate_api.device_code.wgsl_special_values import MAX_FINITE

_TEMPLATE = """
{barrier}
fn cx_make(x: {T}, y: {T}) -> {C} {{ return {C}(x, y); }}
fn cx_isnan(x: {T}) -> bool {{ return (bitcast<u32>(f32(x)) & 0x7fffffffu) > 0x7f800000u; }}
fn cx_isinf(x: {T}) -> bool {{ return abs(x) > {maxf}; }}
fn cx_eq(a: {C}, b: {C}) -> bool {{ return all(a == b); }}
fn cx_add(a: {C}, b: {C}) -> {C} {{ return a + b; }}
fn cx_sub(a: {C}, b: {C}) -> {C} {{ return a - b; }}
fn cx_neg(a: {C}) -> {C} {{ return -a; }}
fn cx_mul(a: {C}, b: {C}) -> {C} {{ return {C}(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }}
// s / m for 0 <= s <= m, quartered where 1/m is subnormal: drivers that
// divide by a flushed reciprocal (NVIDIA's Vulkan) would give 0
fn cx_ratio(s: {T}, m: {T}) -> {T} {{
  return select(s / m, (s * {T}(0.25)) / (m * {T}(0.25)), m > {huge});
}}
fn cx_div(a0: {C}, b0: {C}) -> {C} {{
  // sixteenths of both for a divisor part above 2^(emax-4): Smith's scale
  // 1 / (b.x + b.y * rat) must stay a normal number
  let q = select({one}, {T}(0.0625), max(abs(b0.x), abs(b0.y)) > {huge_div});
  let a = a0 * q;
  let b = b0 * q;
  let br = abs(b.x);
  let bi = abs(b.y);
  if (br >= bi) {{
    if (br == {zero} && bi == {zero}) {{ return {C}(a.x / br, a.y / br); }}
    let rat = b.y / b.x;
    let scl = {one} / (b.x + b.y * rat);
    return {C}((a.x + a.y * rat) * scl, (a.y - a.x * rat) * scl);
  }}
  let rat = b.x / b.y;
  let scl = {one} / (b.y + b.x * rat);
  return {C}((a.x * rat + a.y) * scl, (a.y * rat - a.x) * scl);
}}
// hypot without overflow; an infinite part wins over NaN (C99, NumPy)
fn cx_abs(a: {C}) -> {T} {{
  let x = abs(a.x);
  let y = abs(a.y);
  if (cx_isinf(x) || cx_isinf(y)) {{ return {T}(bitcast<f32>(0x7f800000u)); }}
  if (cx_isnan(x) || cx_isnan(y)) {{ return x + y; }}
  let m = max(x, y);
  if (m == {zero}) {{ return m; }}
  let r = cx_ratio(min(x, y), m);
  return m * sqrt({one} + r * r);
}}
fn cx_angle(a: {C}) -> {T} {{ return {atan2}(a.y, a.x); }}
// NumPy's sign: x / abs(x) (a complex quotient: NaN parts for a NaN
// abs, tested by the bits first), 0 at 0
fn cx_sign(a: {C}) -> {C} {{
  let m = cx_abs(a);
  if (cx_isnan(m)) {{ return {C}(m, m); }}
  if (m == {zero}) {{ return {C}({zero}, {zero}); }}
  return cx_div(a, {C}(m, {zero}));
}}
// exp, log and the principal sqrt as C99 (NumPy): exp(x + 0i) keeps a zero
// imaginary part, sqrt's imaginary part takes the sign of y (-0 included)
fn cx_exp(a: {C}) -> {C} {{
  if (cx_isinf(a.x) && (cx_isinf(a.y) || cx_isnan(a.y))) {{
    // exp(+Inf + i*(Inf or NaN)) is Inf + NaN*i, exp(-Inf + ...) zero (C99)
    if (a.x > {zero}) {{ return {C}(a.x, {T}(bitcast<f32>(0x7fc00000u))); }}
    return {C}({zero}, {zero});
  }}
  if (a.x > {big_exp} && !cx_isinf(a.x) && a.y != {zero}) {{
    // exp(x) overflows before the product with cos(y) or sin(y) would
    let e = {exp}(a.x * {T}(0.5));
    return {C}(cx_o({cos}(a.y) * e) * e, cx_o({sin}(a.y) * e) * e);
  }}
  let m = {exp}(a.x);
  if (a.y == {zero}) {{ return {C}(m, a.y); }}
  return {C}(m * {cos}(a.y), m * {sin}(a.y));
}}
// (a^2, its rounding error): Dekker's exact product, no fused multiply-add
fn cx_two_sq(a: {T}) -> {C} {{
{two_sq}
}}
// x^2 + y^2 - 1 from the exact squares, the sums' errors kept (Knuth's
// two-sum): the real part of log near |z| = 1 without cancellation
fn cx_x2y2m1(x: {T}, y: {T}) -> {T} {{
  let px = cx_two_sq(x);
  let py = cx_two_sq(y);
  let s = cx_o(px.x - {one});
  let sb = cx_o(s - px.x);
  let e1 = cx_o(px.x - cx_o(s - sb)) + cx_o(-{one} - sb);
  let t = cx_o(s + py.x);
  let tb = cx_o(t - s);
  let e2 = cx_o(s - cx_o(t - tb)) + cx_o(py.x - tb);
  return t + cx_o(cx_o(cx_o(e1 + e2) + px.y) + py.y);
}}
fn cx_log(a: {C}) -> {C} {{
  let x = abs(a.x);
  let y = abs(a.y);
  let m = max(x, y);
  if (m > {big} && !cx_isinf(m) && !cx_isnan(x) && !cx_isnan(y)) {{
    // |z| may overflow: log(m) + log(1 + r^2) / 2
    let r = cx_ratio(min(x, y), m);
    return {C}({log}(m) + {T}(0.5) * {log}({one} + r * r), cx_angle(a));
  }}
  if (m > {zero} && m < {tiny}) {{
    // subnormal parts would round |z|: the log of z * 2^{scale_exp} less {scale_exp} ln 2
    let h = cx_abs(a * ldexp({one}, {scale_exp}));
    return {C}({log}(h) - {T}({scale_log}), cx_angle(a));
  }}
  let h = cx_abs(a);
  if (h > {T}(0.71) && h < {T}(1.41)) {{
    return {C}({T}(0.5) * {log1p}(cx_x2y2m1(m, min(x, y))), cx_angle(a));
  }}
  return {C}({log}(h), cx_angle(a));
}}
// NumPy's power: 1 for a zero exponent, 0 or NaN for a zero base (by the
// exponent's real part), a
// product of squares for an integer exponent below 100 in magnitude (its
// reciprocal for a negative one), else exp(b * log(a))
fn cx_pow(a: {C}, b: {C}) -> {C} {{
  if (b.x == {zero} && b.y == {zero}) {{ return {C}({one}, {zero}); }}
  if (a.x == {zero} && a.y == {zero}) {{
    if (b.x > {zero}) {{ return {C}({zero}, {zero}); }}
    return {C}({T}(bitcast<f32>(0x7fc00000u)), {T}(bitcast<f32>(0x7fc00000u)));
  }}
  if (b.y == {zero} && b.x == floor(b.x) && abs(b.x) < {T}(100.0)) {{
    let n = i32(b.x);
    if (n == 1) {{ return a; }}
    if (n == 2) {{ return cx_mul(a, a); }}
    if (n == 3) {{ return cx_mul(a, cx_mul(a, a)); }}
    let m = abs(n);
    var acc = {C}({one}, {zero});
    var p = a;
    var mask = 1;
    loop {{
      if ((m & mask) != 0) {{ acc = cx_mul(acc, p); }}
      mask = mask << 1u;
      if (m < mask) {{ break; }}
      p = cx_mul(p, p);
    }}
    if (b.x < {zero}) {{ return cx_div({C}({one}, {zero}), acc); }}
    return acc;
  }}
  return cx_exp(cx_mul(b, cx_log(a)));
}}
fn cx_sqrt(a: {C}) -> {C} {{
  if (a.x == {zero} && a.y == {zero}) {{ return {C}({zero}, a.y); }}
  if (cx_isinf(a.y)) {{ return {C}(abs(a.y), a.y); }}
  if (cx_isnan(a.x) || cx_isnan(a.y)) {{ return {C}(a.x + a.y, a.x + a.y); }}
  // near the largest values (|x| + |z|) / 2 overflows: there the root of
  // z / 16 (exact scaling) times 4
  let big = abs(a.x) > {big} || abs(a.y) > {big};
  let s = select(a, a * {T}(0.0625), big);
  let t = sqrt((abs(s.x) + cx_abs(s)) * {T}(0.5));
  let negative = s.y < {zero} || (s.y == {zero} && {one} / s.y < {zero});
  let r = select({C}(abs(s.y) / ({T}(2) * t), select(t, -t, negative)), {C}(t, s.y / ({T}(2) * t)),
                 s.x >= {zero});
  return select(r, r * {T}(4), big);
}}
// sign of x, -0 included (NaN: either)
fn cx_signbit(x: {T}) -> bool {{ return x < {zero} || (x == {zero} && {one} / x < {zero}); }}
fn cx_copysign(m: {T}, s: {T}) -> {T} {{ return select(abs(m), -abs(m), cx_signbit(s)); }}
// sinh, cosh and tanh with C99 Annex G's special values as NumPy gives
// them: the real functions of the parts, |x| above {big_exp} through
// exp(|x|/2)^2 (the products would overflow in between); sin, cos and tan
// as NumPy: sin(x + iy) and tan(x + iy) are sinh(y + ix) and tanh(y + ix)
// with the parts swapped, cos(z) = cosh(iz)
fn cx_sinh(a: {C}) -> {C} {{
  let x = a.x;
  let y = a.y;
  let sx = cx_copysign({one}, x);
  if (cx_isnan(x)) {{ return {C}(x, select({nan}, y, y == {zero})); }}
  if (cx_isinf(y) || cx_isnan(y)) {{
    if (cx_isinf(x)) {{ return {C}(abs(x), {nan}); }}
    return {C}(select({nan}, x, x == {zero}), {nan});
  }}
  if (y == {zero}) {{ return {C}({sinh}(x), y); }}
  // below the smallest normal value sin(y) is y and cos(y) 1 (glibc)
  let small = abs(y) < {min_normal};
  let s = select({sin}(y), y, small);
  let c = select({cos}(y), {one}, small);
  if (cx_isinf(x)) {{ return {C}(sx * cx_copysign({inf}, c), cx_copysign({inf}, s)); }}
  if (abs(x) > {big_exp}) {{
    let e = {exp}(abs(x) * {T}(0.5));
    return {C}(sx * ((c * e) * {T}(0.5) * e), (s * e) * {T}(0.5) * e);
  }}
  return {C}({sinh}(x) * c, {cosh}(x) * s);
}}
fn cx_cosh(a: {C}) -> {C} {{
  let x = a.x;
  let y = a.y;
  let sx = cx_copysign({one}, x);
  if (cx_isnan(x)) {{ return {C}(x, select({nan}, y, y == {zero})); }}
  if (cx_isinf(y) || cx_isnan(y)) {{
    if (cx_isinf(x)) {{ return {C}({inf}, {nan}); }}
    return {C}({nan}, select({nan}, {zero}, x == {zero}));
  }}
  if (y == {zero}) {{ return {C}({cosh}(x), sx * y); }}
  // below the smallest normal value sin(y) is y and cos(y) 1 (glibc)
  let small = abs(y) < {min_normal};
  let s = select({sin}(y), y, small);
  let c = select({cos}(y), {one}, small);
  if (cx_isinf(x)) {{ return {C}(cx_copysign({inf}, c), cx_copysign({inf}, s) * sx); }}
  if (abs(x) > {big_exp}) {{
    let e = {exp}(abs(x) * {T}(0.5));
    return {C}((c * e) * {T}(0.5) * e, sx * ((s * e) * {T}(0.5) * e));
  }}
  return {C}({cosh}(x) * c, {sinh}(x) * s);
}}
// Kahan's tanh (overflow-safe): with t = tan(y), b = 1 + t^2, s = sinh(x),
// (b s sqrt(1 + s^2) + i t) / (1 + b s^2); for |x| above {big_tanh} the real
// part is +-1 and the imaginary part 4 sin(y) cos(y) exp(-2|x|)
fn cx_tanh(a: {C}) -> {C} {{
  let x = a.x;
  let y = a.y;
  if (cx_isinf(x)) {{
    let wide = !cx_isinf(y) && !cx_isnan(y) && abs(y) > {one};
    return {C}(cx_copysign({one}, x), cx_copysign({zero}, select(y, {sin}(y) * {cos}(y), wide)));
  }}
  if (cx_isnan(x)) {{ return {C}(x, select({nan}, y, y == {zero})); }}
  if (cx_isinf(y) || cx_isnan(y)) {{ return {C}(select({nan}, x, x == {zero}), {nan}); }}
  if (abs(x) >= {big_tanh}) {{
    let e = {exp}(-abs(x));
    return {C}(cx_copysign({one}, x), {T}(4) * {sin}(y) * {cos}(y) * e * e);
  }}
  let t = {tan}(y);
  let b = {one} + t * t;
  let s = {sinh}(x);
  let rho = sqrt({one} + s * s);
  let d = {one} + b * s * s;
  return {C}(b * rho * s / d, t / d);
}}
fn cx_sin(a: {C}) -> {C} {{ let r = cx_sinh({C}(a.y, a.x)); return {C}(r.y, r.x); }}
fn cx_cos(a: {C}) -> {C} {{ return cx_cosh({C}(-a.y, a.x)); }}
fn cx_tan(a: {C}) -> {C} {{ let r = cx_tanh({C}(a.y, a.x)); return {C}(r.y, r.x); }}
// NumPy's log2/log10: the complex log times 1/ln 2, 1/ln 10 per part
fn cx_log2(a: {C}) -> {C} {{ return cx_log_times(a, {T}(1.4426950408889634)); }}
fn cx_log10(a: {C}) -> {C} {{ return cx_log_times(a, {T}(0.4342944819032518)); }}
// log(a) * k; an angle below 2^-124 (y tiny against x > 0: atan2 of y *
// 2^64 is still y/x * 2^64 to the last bit; |y| below 2^60 so y * 2^64 is
// finite) is taken of y * 2^64 and scaled back after the product with k, so a result that is a
// normal number never passes through a subnormal one (which some drivers
// flush to zero)
fn cx_log_times(a: {C}, k: {T}) -> {C} {{
  let r = cx_log(a) * k;
  if (a.x > {zero} && abs(a.y) < a.x * {T}(4.70197740328915e-38)
      && abs(a.y) < {T}(1152921504606846976.0)) {{
    return {C}(r.x, cx_o({atan2}(a.y * {T}(18446744073709551616.0), a.x) * k) * {T}(5.421010862427522e-20));
  }}
  return r;
}}
// NumPy's expm1: expm1(x) cos(y) - 2 sin(y/2)^2 + i exp(x) sin(y)
fn cx_expm1(a: {C}) -> {C} {{
  let h = {sin}(a.y * {T}(0.5));
  return {C}({expm1}(a.x) * {cos}(a.y) - {T}(2) * h * h, {exp}(a.x) * {sin}(a.y));
}}
// NumPy's log1p: log(hypot(x + 1, y)) + i atan2(y, x + 1)
fn cx_log1p(a: {C}) -> {C} {{
  let u = {C}(a.x + {one}, a.y);
  return {C}({log}(cx_abs(u)), cx_angle(u));
}}
"""

# cx_two_sq's body: f64 through the library's Dekker product (its splits are
# kept from being folded), f32 written out with the 12-bit split
_TWO_SQ_F64 = "  let p = mf_two_prod(a, a);\n  return vec2<f64>(p.x, p.y);"
_TWO_SQ_F32 = """  let p = a * a;
  let c = cx_o(f32(4097.0) * a);
  let hi = c - cx_o(c - a);
  let lo = cx_o(a - hi);
  return vec2<f32>(p, cx_o(cx_o(cx_o(hi * hi - p) + cx_o(f32(2.0) * hi * lo)) + lo * lo));"""

# ``cx_o(v)``: ``v``, opaque to the shader compiler. NVIDIA's Vulkan compiler
# (and llvmpipe's) reassociate floating-point expressions: ``(s * e) * e``
# becomes ``s * (e * e)`` (overflow) and error-free transforms fold to zero.
# Singles pass through their bits XORed with a run-time zero (``cx_init``,
# called by every complex kernel, sets it from the dispatch size); doubles
# through the f64 library's multiply by a run-time one (``mf_o``).
_BARRIER_F32 = """var<private> cx_zero_bits: u32;
fn cx_init(groups: u32) { cx_zero_bits = groups & 0x80000000u; }
fn cx_o(v: f32) -> f32 { return bitcast<f32>(bitcast<u32>(v) ^ cx_zero_bits); }"""
_BARRIER_F64 = """fn cx_init(groups: u32) { mf_init(groups); }
fn cx_o(v: f64) -> f64 { return mf_o(v); }"""


def complex_library(t: str) -> tuple[str, tuple[str, ...]]:
    """(source, ``wgsl_library`` helper names it calls) of the complex
    helpers of element type ``t`` (``f32``/``f64``)."""
    if t == "f64":
        funcs = {"exp": "mf_exp", "log": "mf_log", "cos": "mf_cos", "sin": "mf_sin", "tan": "mf_tan",
                 "sinh": "mf_sinh", "cosh": "mf_cosh", "expm1": "mf_expm1", "log1p": "mf_log1p",
                 "atan2": "mf_atan2"}
        deps: tuple[str, ...] = ("f64math",)
        # the scaling thresholds (1e300, 1e-300) as products of literals each representable in the type
        fields = dict(big="(f64(1.0e150) * f64(1.0e150))", tiny="(f64(1.0e-150) * f64(1.0e-150))",
                      scale_exp="600", scale_log="415.88830833596719", big_exp="f64(709.0)",
                      big_tanh="f64(22.0)", min_normal="f64(2.2250738585072014e-308)",
                      huge="f64(2.247116418577895e307)", huge_div="f64(5.617791046444737e306)",
                      two_sq=_TWO_SQ_F64, barrier=_BARRIER_F64)
    else:
        funcs = {"exp": "exp", "log": "log", "cos": "mf32_cos", "sin": "mf32_sin", "tan": "mf32_tan",
                 "sinh": "mf32_sinh", "cosh": "cosh", "expm1": "mf32_expm1", "log1p": "mf32_log1p",
                 "atan2": "mfx_atan2_32"}
        deps = ("f32math", "mfx_atan2_32", "mf32_log1p")
        fields = dict(big="(f32(1.0e18) * f32(1.0e18))", tiny="(f32(1.0e-18) * f32(1.0e-18))",
                      scale_exp="64", scale_log="44.3614195558365", big_exp="f32(88.0)",
                      big_tanh="f32(9.0)", min_normal="f32(1.1754943508222875e-38)",
                      huge="f32(4.2535296e37)", huge_div="f32(1.0633824e37)",
                      two_sq=_TWO_SQ_F32, barrier=_BARRIER_F32)
    source = _TEMPLATE.format(T=t, C=f"vec2<{t}>", zero=f"{t}(0.0)", one=f"{t}(1.0)",
                              maxf=f"{t}({MAX_FINITE[t]})", inf=f"{t}(bitcast<f32>(0x7f800000u))",
                              nan=f"{t}(bitcast<f32>(0x7fc00000u))", **fields, **funcs)
    return source, deps
