"""Single-precision inverse trigonometric and hyperbolic functions for WGSL.

lavapipe's f32 ``asin``/``acos`` are off by up to 4e-4 relative and its
``acosh`` by 5e-5 (the driver's formulas cancel), far from MATLAB's single
results. These are built from functions that are accurate in f32:

* ``asin(x) = atan(x / sqrt((1-x)(1+x)))`` and ``acos(x) = atan2(sqrt((1-x)(1+x)), x)``
  with ``mf32_atan`` (2.3 ulps); ``1 - |x|`` is exact near 1;
* ``acosh(x) = log1p(t + sqrt(2t + t^2))``, ``t = x - 1`` (exact near 1), and
  ``log(x) + log(2)`` above 4096;
* ``atanh(x) = sign(x) log1p(2|x| / (1 - |x|)) / 2``,

with ``mf32_log1p``: ``2 atanh(s)``, ``s = x/(2+x)``, by its series for
``1 + x`` in [0.7, 1.5] (lavapipe's f32 ``log`` has an absolute, not a
relative, error near 1), the driver's ``log(1 + x)`` elsewhere.

Outside the real domain they give NaN (the fused kernels' domain flag or
the caller's check decides MATLAB's complex result); ``-0`` keeps its sign.
"""

from __future__ import annotations

_NAN = "bitcast<f32>(0x7fc00000u)"

#: helper name -> (WGSL source, helpers it calls)
F32_INVERSE: dict[str, tuple[str, tuple[str, ...]]] = {
    "mf32_asin": (f"""
fn mf32_asin(x: f32) -> f32 {{
  let ax = abs(x);
  if (!(ax <= 1.0f)) {{ return {_NAN}; }}
  if (x == 0.0f) {{ return x; }}
  let r = mf32_atan(ax / sqrt((1.0f - ax) * (1.0f + ax)));
  return select(r, -r, x < 0.0f);
}}
""", ("f32math",)),
    "mf32_acos": (f"""
fn mf32_acos(x: f32) -> f32 {{
  let ax = abs(x);
  if (!(ax <= 1.0f)) {{ return {_NAN}; }}
  if (ax == 0.0f) {{ return 1.5707964f; }}
  let r = mf32_atan(sqrt((1.0f - ax) * (1.0f + ax)) / ax);
  return select(r, 3.1415927f - r, x < 0.0f);
}}
""", ("f32math",)),
    "mf32_log1p": ("""
fn mf32_log1p(x: f32) -> f32 {
  if (x > -0.3f && x < 0.5f) {
    let s = x / (2.0f + x);
    let z = s * s;
    let p = (((z * 0.11111111f + 0.14285715f) * z + 0.2f) * z + 0.33333334f) * z;
    return 2.0f * (s + s * p);
  }
  return log(1.0f + x);
}
""", ()),
    "mf32_acosh": (f"""
fn mf32_acosh(x: f32) -> f32 {{
  if (!(x >= 1.0f)) {{ return {_NAN}; }}
  if (x > 4096.0f) {{ return log(x) + 0.69314718f; }}
  let t = x - 1.0f;
  return mf32_log1p(t + sqrt(2.0f * t + t * t));
}}
""", ("mf32_log1p",)),
    "mf32_atanh": (f"""
fn mf32_atanh(x: f32) -> f32 {{
  let ax = abs(x);
  if (!(ax <= 1.0f)) {{ return {_NAN}; }}
  if (x == 0.0f) {{ return x; }}
  // odd: the positive argument keeps log1p away from -1
  let r = 0.5f * mf32_log1p(2.0f * ax / (1.0f - ax));
  return select(r, -r, x < 0.0f);
}}
""", ("mf32_log1p",)),
}
