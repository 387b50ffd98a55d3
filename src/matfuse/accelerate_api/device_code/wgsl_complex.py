"""WGSL helper functions of complex values (``vec2<f32>``/``vec2<f64>``: x
the real part, y the imaginary part) that ``complex_table`` expressions call.

The formulas are NumPy's (the in-process provider and the host compute with
NumPy): products by the textbook formula, quotients by Smith's algorithm
with NumPy's case for a zero divisor, ``abs`` scaled by the larger part,
exp/log/sqrt as C99, sqrt scaled near the largest finite values. f64 uses
matfuse's own transcendentals (``wgsl_f64math``: the drivers' f64 builtins
are wrong), f32 the accurate f32 ones (``wgsl_f32math``).
"""

from __future__ import annotations

from matfuse.accelerate_api.device_code.wgsl_special_values import MAX_FINITE

_TEMPLATE = """
fn cx_make(x: {T}, y: {T}) -> {C} {{ return {C}(x, y); }}
fn cx_isnan(x: {T}) -> bool {{ return (bitcast<u32>(f32(x)) & 0x7fffffffu) > 0x7f800000u; }}
fn cx_isinf(x: {T}) -> bool {{ return abs(x) > {maxf}; }}
fn cx_eq(a: {C}, b: {C}) -> bool {{ return all(a == b); }}
fn cx_add(a: {C}, b: {C}) -> {C} {{ return a + b; }}
fn cx_sub(a: {C}, b: {C}) -> {C} {{ return a - b; }}
fn cx_neg(a: {C}) -> {C} {{ return -a; }}
fn cx_mul(a: {C}, b: {C}) -> {C} {{ return {C}(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }}
fn cx_div(a: {C}, b: {C}) -> {C} {{
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
  let r = min(x, y) / m;
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
  let m = {exp}(a.x);
  if (a.y == {zero}) {{ return {C}(m, a.y); }}
  return {C}(m * {cos}(a.y), m * {sin}(a.y));
}}
fn cx_log(a: {C}) -> {C} {{
  let x = abs(a.x);
  let y = abs(a.y);
  let m = max(x, y);
  if (m > {big} && !cx_isinf(m)) {{
    // |z| may overflow: log(m) + log(1 + r^2) / 2
    let r = min(x, y) / m;
    return {C}({log}(m) + {T}(0.5) * {log}({one} + r * r), cx_angle(a));
  }}
  return {C}({log}(cx_abs(a)), cx_angle(a));
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
"""


def complex_library(t: str) -> tuple[str, tuple[str, ...]]:
    """(source, ``wgsl_library`` helper names it calls) of the complex
    helpers of element type ``t`` (``f32``/``f64``)."""
    if t == "f64":
        funcs = {"exp": "mf_exp", "log": "mf_log", "cos": "mf_cos", "sin": "mf_sin", "atan2": "mf_atan2"}
        deps: tuple[str, ...] = ("f64math",)
        # the scaling threshold of sqrt (1e300) as a product of literals each representable in the type
        big = "(f64(1.0e150) * f64(1.0e150))"
    else:
        funcs = {"exp": "exp", "log": "log", "cos": "mf32_cos", "sin": "mf32_sin", "atan2": "mfx_atan2_32"}
        deps = ("f32math", "mfx_atan2_32")
        big = "(f32(1.0e18) * f32(1.0e18))"   # 1e36
    source = _TEMPLATE.format(T=t, C=f"vec2<{t}>", zero=f"{t}(0.0)", one=f"{t}(1.0)",
                              maxf=f"{t}({MAX_FINITE[t]})", big=big, **funcs)
    return source, deps
