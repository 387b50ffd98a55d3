"""Special functions for WGSL, written once for f32 and f64: ``erf``, ``erfc``
(fdlibm's rational approximations), ``gamma``, ``gammaln`` (Stirling's
series above 10, the recurrence below, reflection for negative arguments)
and ``erfinv``, ``erfcinv`` (Newton's method on ``erf``, or on ``log(erfc)``
in the tails, where it converges from the upper bound ``sqrt(-log z)``).

The f64 forms call matfuse's f64 library (``mf_exp``, ``mf_log``,
``mf_sin``, ``mf_pow``); the f32 forms the drivers' f32 ``exp``/``log``/
``pow`` and ``mf32_sin``. Against mpmath (NumPy prototypes of these exact
steps): erf 3.6e-16, erfc 2.9e-16 relative (where the result is normal),
gamma 2.2e-15, erfinv/erfcinv 3.3e-16; gammaln 2.2e-15 relative away from
its zeros at 1 and 2, 1e-16 absolute near them. The f32 forms' accuracy is
bounded by the driver's f32 ``exp``/``pow``, whose error grows with the
argument (tests/accelerate/providers/test_wgpu_special_functions.py).

``gamma`` of a positive integer up to 23 (14 in single) is the exact
factorial. MATLAB's special values: ``gamma`` is Inf at 0 and the negative integers
(``-Inf`` at ``-0``), NaN at ``-Inf``; ``gammaln`` is Inf at the poles and
``-Inf`` at ``-Inf``; ``erfinv(+-1)`` and ``erfcinv(0|2)`` are infinite and
NaN outside [-1, 1] / [0, 2].
"""

from __future__ import annotations

# fdlibm s_erf.c
_ERX = 8.45062911510467529297e-01
_EFX = 1.28379167095512586316e-01
_PP = [1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02,
       -5.77027029648944159157e-03, -2.37630166566501626084e-05]
_QQ = [1.0, 3.97917223959155352819e-01, 6.50222499887672944485e-02, 5.08130628187576562776e-03,
       1.32494738004321644526e-04, -3.96022827877536812320e-06]
_PA = [-2.36211856075265944077e-03, 4.14856118683748331666e-01, -3.72207876035701323847e-01,
       3.18346619901161753674e-01, -1.10894694282396677476e-01, 3.54783043256182359371e-02,
       -2.16637559486879084300e-03]
_QA = [1.0, 1.06420880400844228286e-01, 5.40397917702171048937e-01, 7.18286544141962662868e-02,
       1.26171219808761642112e-01, 1.36370839120290507362e-02, 1.19844998467991074170e-02]
_RA = [-9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e+01,
       -6.23753324503260060396e+01, -1.62396669462573470355e+02, -1.84605092906711035994e+02,
       -8.12874355063065934246e+01, -9.81432934416914548592e+00]
_SA = [1.0, 1.96512716674392571292e+01, 1.37657754143519042600e+02, 4.34565877475229228821e+02,
       6.45387271733267880336e+02, 4.29008140027567833386e+02, 1.08635005541779435134e+02,
       6.57024977031928170135e+00, -6.04244152148580987438e-02]
_RB = [-9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e+01,
       -1.60636384855821916062e+02, -6.37566443368389627722e+02, -1.02509513161107724954e+03,
       -4.83519191608651397019e+02]
_SB = [1.0, 3.03380607434824582924e+01, 3.25792512996573918826e+02, 1.53672958608443695994e+03,
       3.19985821950859553908e+03, 2.55305040643316442583e+03, 4.74528541206955367215e+02,
       -2.24409524465858183362e+01]
# Stirling's series: B_2k / (2k (2k - 1))
_STIRLING = [1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156,
             -3617 / 122400]
# Giles' erfinv guess (central branch), refined by Newton's method
_GILES = [1.50140941, 0.246640727, -0.00417768164, -0.00125372503, 0.00021858087,
          -4.39150654e-06, -3.5233877e-06, 3.43273939e-07, 2.81022636e-08]

#: the largest argument whose gamma is finite
_GAMMA_MAX = {"f64": 171.6243769563027, "f32": 35.04}
#: the largest integer n whose gamma, (n-1)!, the type holds exactly
_EXACT_FACTORIAL = {"f64": 23.0, "f32": 14.0}


def _num(v: float, t: str) -> str:
    return f"{v:.17e}" + ("lf" if t == "f64" else "f")


def _poly(coeffs: list[float], var: str, t: str) -> str:
    """Horner form of sum(coeffs[k] * var^k)."""
    expr = _num(coeffs[-1], t)
    for c in reversed(coeffs[:-1]):
        expr = f"({_num(c, t)} + {var} * {expr})"
    return expr


def special_source(t: str) -> str:
    """WGSL of ``mf_{erf,erfc,gamma,gammaln,erfinv,erfcinv}_<t>``."""
    f64 = t == "f64"
    exp, log, sin = ("mf_exp", "mf_log", "mf_sin") if f64 else ("exp", "log", "mf32_sin")
    pow_ = "mf_pow" if f64 else "pow"
    inf, nan = ("mf_inf()", "mf_nan()") if f64 else (
        "bitcast<f32>(0x7f800000u)", "bitcast<f32>(0x7fc00000u)")
    isnan = "mf_isnan(x)" if f64 else "((bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u)"
    # high bits of |x| whose square is exact in the type
    trunc = "f64(f32(ax))" if f64 else "bitcast<f32>(bitcast<u32>(ax) & 0xfffff000u)"
    n = lambda v: _num(v, t)  # noqa: E731 - literal in this type
    big = n(1.7976931348623157e308 if f64 else 3.4028234663852886e38)   # -Inf is below
    return f"""
fn mf_erf_tail_{t}(ax: {t}) -> {t} {{
  // erfc(ax) for 1.25 <= ax < 28
  let s = {n(1.0)} / (ax * ax);
  var r: {t};
  if (ax < {n(1 / 0.35)}) {{ r = {_poly(_RA, "s", t)} / {_poly(_SA, "s", t)}; }}
  else {{ r = {_poly(_RB, "s", t)} / {_poly(_SB, "s", t)}; }}
  let z = {trunc};
  return {exp}(-z * z - {n(0.5625)}) * {exp}((z - ax) * (z + ax) + r) / ax;
}}
fn mf_log_erfc_{t}(ax: {t}) -> {t} {{
  // log(erfc(ax)) for 0 <= ax < 28, without forming erfc where it would
  // underflow (a GPU flushing subnormals to zero would make it 0)
  if (ax < {n(1.25)}) {{ return {log}(mf_erfc_{t}(ax)); }}
  let s = {n(1.0)} / (ax * ax);
  var r: {t};
  if (ax < {n(1 / 0.35)}) {{ r = {_poly(_RA, "s", t)} / {_poly(_SA, "s", t)}; }}
  else {{ r = {_poly(_RB, "s", t)} / {_poly(_SB, "s", t)}; }}
  let z = {trunc};
  return (-z * z - {n(0.5625)}) + ((z - ax) * (z + ax) + r) - {log}(ax);
}}
fn mf_erf_{t}(x: {t}) -> {t} {{
  if ({isnan}) {{ return x; }}
  let ax = abs(x);
  if (ax < {n(0.84375)}) {{
    if (ax < {n(2.0 ** -28)}) {{ return x + {n(_EFX)} * x; }}
    let z = x * x;
    return x + x * ({_poly(_PP, "z", t)} / {_poly(_QQ, "z", t)});
  }}
  var v: {t};
  if (ax < {n(1.25)}) {{
    let s = ax - {n(1.0)};
    v = {n(_ERX)} + {_poly(_PA, "s", t)} / {_poly(_QA, "s", t)};
  }} else if (ax >= {n(6.0)}) {{
    v = {n(1.0)};
  }} else {{
    v = {n(1.0)} - mf_erf_tail_{t}(ax);
  }}
  return select(v, -v, x < {n(0.0)});
}}
fn mf_erfc_{t}(x: {t}) -> {t} {{
  if ({isnan}) {{ return x; }}
  let ax = abs(x);
  if (ax < {n(0.84375)}) {{
    if (ax < {n(2.0 ** -56)}) {{ return {n(1.0)} - x; }}
    let z = x * x;
    let y = {_poly(_PP, "z", t)} / {_poly(_QQ, "z", t)};
    if (x < {n(0.25)}) {{ return {n(1.0)} - (x + x * y); }}
    return {n(0.5)} - (x * y + (x - {n(0.5)}));
  }}
  if (ax < {n(1.25)}) {{
    let s = ax - {n(1.0)};
    let pq = {_poly(_PA, "s", t)} / {_poly(_QA, "s", t)};
    if (x >= {n(0.0)}) {{ return {n(1.0 - _ERX)} - pq; }}
    return {n(1.0)} + ({n(_ERX)} + pq);
  }}
  if (ax < {n(28.0)}) {{
    if (x < {n(0.0)} && ax > {n(6.0)}) {{ return {n(2.0)}; }}
    let r = mf_erf_tail_{t}(ax);
    return select({n(2.0)} - r, r, x > {n(0.0)});
  }}
  return select({n(2.0)}, {n(0.0)}, x > {n(0.0)});
}}
fn mf_sinpi_{t}(x: {t}) -> {t} {{
  // sin(pi x), reduced exactly to [-1/2, 1/2]
  var r = x - {n(2.0)} * floor(x * {n(0.5)} + {n(0.5)});
  if (r > {n(0.5)}) {{ r = {n(1.0)} - r; }} else if (r < {n(-0.5)}) {{ r = {n(-1.0)} - r; }}
  return {sin}({n(3.141592653589793)} * r);
}}
fn mf_stirling_{t}(y: {t}) -> {t} {{
  let s = {n(1.0)} / (y * y);
  return {_poly(_STIRLING, "s", t)} / y;
}}
fn mf_gamma_pos_{t}(x: {t}) -> {t} {{
  // 0 < x: Stirling's formula at y = x + k >= 10, divided by x (x+1) ... (x+k-1)
  if (x > {n(_GAMMA_MAX[t])}) {{ return {inf}; }}
  if (x == floor(x) && x <= {n(_EXACT_FACTORIAL[t])}) {{
    // (x-1)! is exact in the type: a product of exact steps, as MATLAB gives
    var f = {n(1.0)};
    for (var k = {n(2.0)}; k < x; k = k + {n(1.0)}) {{ f = f * k; }}
    return f;
  }}
  var shift = {n(1.0)};
  var y = x;
  for (var k = 0; k < 10 && y < {n(10.0)}; k = k + 1) {{ shift = shift * y; y = y + {n(1.0)}; }}
  let p = {pow_}(y, {n(0.5)} * (y - {n(0.5)}));
  let v = {n(2.5066282746310002)} * (p * {exp}(-y)) * p * {exp}(mf_stirling_{t}(y));
  return v / shift;
}}
fn mf_gamma_{t}(x: {t}) -> {t} {{
  if ({isnan}) {{ return x; }}
  if (x == {n(0.0)}) {{ return select({inf}, -{inf}, {n(1.0)} / x < {n(0.0)}); }}
  if (x < {n(0.0)}) {{
    if (x < -{big}) {{ return {nan}; }}
    if (x == floor(x)) {{ return {inf}; }}
    return {n(3.141592653589793)} / (mf_sinpi_{t}(x) * mf_gamma_pos_{t}({n(1.0)} - x));
  }}
  return mf_gamma_pos_{t}(x);
}}
fn mf_gammaln_pos_{t}(x: {t}) -> {t} {{
  if (x < {n(1e-8)}) {{ return -{log}(x) - {n(0.5772156649015329)} * x; }}
  if (x < {n(10.0)}) {{ return {log}(mf_gamma_pos_{t}(x)); }}
  return (x - {n(0.5)}) * {log}(x) - x + {n(0.9189385332046727)} + mf_stirling_{t}(x);
}}
fn mf_gammaln_{t}(x: {t}) -> {t} {{
  if ({isnan}) {{ return x; }}
  if (x <= {n(0.0)}) {{
    if (x < -{big}) {{ return x; }}
    if (x == floor(x)) {{ return {inf}; }}
    return {log}({n(3.141592653589793)} / abs(mf_sinpi_{t}(x))) - mf_gammaln_pos_{t}({n(1.0)} - x);
  }}
  if (x > {big}) {{ return x; }}
  return mf_gammaln_pos_{t}(x);
}}
fn mf_erfinv_small_{t}(y: {t}) -> {t} {{
  // |y| <= 1/2: Giles' guess, two Newton steps on erf
  let w = -{log}(({n(1.0)} - y) * ({n(1.0)} + y)) - {n(2.5)};
  var x = {_poly(_GILES, "w", t)} * y;
  for (var k = 0; k < 2; k = k + 1) {{
    x = x - (mf_erf_{t}(x) - y) / ({n(1.1283791670955126)} * {exp}(-x * x));
  }}
  return x;
}}
fn mf_erfcinv_tail_{t}(z: {t}) -> {t} {{
  // 0 < z <= 1/2: Newton on log(erfc(x)) - log(z) from sqrt(-log z) (above
  // the root; log(erfc) is concave, so the steps approach it from there)
  let lz = {log}(z);
  var x = sqrt(-lz);
  for (var k = 0; k < 5; k = k + 1) {{
    let le = mf_log_erfc_{t}(x);
    x = x + (le - lz) / ({n(1.1283791670955126)} * {exp}(-x * x - le));
  }}
  return x;
}}
fn mf_erfinv_{t}(x: {t}) -> {t} {{
  let ax = abs(x);
  if (!(ax <= {n(1.0)})) {{ return {nan}; }}
  if (ax == {n(1.0)}) {{ return select({inf}, -{inf}, x < {n(0.0)}); }}
  if (ax <= {n(0.5)}) {{ return mf_erfinv_small_{t}(x); }}
  let r = mf_erfcinv_tail_{t}({n(1.0)} - ax);
  return select(r, -r, x < {n(0.0)});
}}
fn mf_erfcinv_{t}(x: {t}) -> {t} {{
  if (!(x >= {n(0.0)} && x <= {n(2.0)})) {{ return {nan}; }}
  if (x == {n(0.0)}) {{ return {inf}; }}
  if (x == {n(2.0)}) {{ return -{inf}; }}
  if (x < {n(0.5)}) {{ return mf_erfcinv_tail_{t}(x); }}
  if (x > {n(1.5)}) {{ return -mf_erfcinv_tail_{t}({n(2.0)} - x); }}
  return mf_erfinv_small_{t}({n(1.0)} - x);
}}
"""


#: MATLAB function -> WGSL function name pattern (``{t}``: f32/f64)
SPECIAL_FUNCS = ("erf", "erfc", "gamma", "gammaln", "erfinv", "erfcinv")
