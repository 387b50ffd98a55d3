"""Payne-Hanek reduction of large f64 arguments by pi/2, in WGSL.

``mf_rem_pio2`` (``f64math``) reduces |x| < 2^28 by Cody-Waite; larger
finite arguments come here (``mf_rem_pio2_large``), so that ``sin``,
``cos`` and ``tan`` are right over the whole double range (``sin(1e22)``,
``sin(1e308)``). The method is fdlibm's ``__kernel_rem_pio2`` with only
exact double arithmetic: |x| is split into four 24-bit integer chunks
scaled by 2^e0 (e0 a multiple of 24), 2/pi is a table of 24-bit digits,
and every digit product (< 2^48) and column sum (< 2^50) is exact. Columns
whose weight is a multiple of 4 are dropped (they do not change the
quadrant), the rest are carried into 24-bit digits; the fraction is taken
from the first nonzero digits (no cancellation: digits are exact), then
multiplied by pi/2 in double-double. Straight-line code plus loops of at
most eight steps: well inside llvmpipe's loop budget.

Single precision (``mf32_sin/cos/tan`` beyond |x| = 8192, where the
Cody-Waite octant reduction of ``f32math`` stops) uses the same scheme in
u32 integer arithmetic with 12-bit digits (products < 2^24, column sums
< 2^26), so it needs no f64 support (``mf32_rem_pio2_large``).
"""

from __future__ import annotations


def _two_over_pi_digits(count: int) -> list[int]:
    """The first ``count`` 24-bit digits of 2/pi (Machin's formula in integers)."""
    bits = 24 * count + 64
    one = 1 << bits

    def arctan_inv(n: int) -> int:
        total, term, k, sign = 0, one // n, 1, 1
        while term:
            total += sign * (term // k)
            term //= n * n
            k += 2
            sign = -sign
        return total

    pi = 16 * arctan_inv(5) - 4 * arctan_inv(239)
    two_over_pi = (2 << (2 * bits)) // pi
    return [(two_over_pi >> (bits - 24 * (j + 1))) & 0xFFFFFF for j in range(count)]


#: digits needed: jv (<= 41 for e0 <= 1008) + 8 columns
DIGITS = 52

PAYNE_HANEK_F64 = (
    f"var<private> MF_IPIO2: array<u32, {DIGITS}> = array<u32, {DIGITS}>("
    + ", ".join(f"{d}u" for d in _two_over_pi_digits(DIGITS)) + ");\n"
    + r"""
fn mf_ipio2(j: i32) -> f64 {
  if (j < 0i) { return 0.0lf; }
  return f64(MF_IPIO2[j]);
}

// finite |x| >= 2^28
fn mf_rem_pio2_large(x: f64) -> MfRed {
  let ax = abs(x);
  let e = mf_split(ax).e;
  let e0 = 24i * (e / 24i);
  var z = mf_scale(ax, -e0);
  var xs: array<f64, 4>;
  for (var i = 0i; i < 4i; i = i + 1i) {
    xs[i] = floor(z);
    z = mf_o((z - xs[i]) * 16777216.0lf);
  }
  let jv = e0 / 24i - 1i;
  var q: array<f64, 8>;
  for (var u = 0i; u < 8i; u = u + 1i) {
    var s = 0.0lf;
    for (var i = 0i; i < 4i; i = i + 1i) { s = mf_o(s + xs[i] * mf_ipio2(jv + u - i)); }
    q[u] = s;
  }
  for (var u = 7i; u > 0i; u = u - 1i) {
    let c = floor(q[u] * 5.9604644775390625e-8lf);
    q[u] = mf_o(q[u] - c * 16777216.0lf);
    q[u - 1i] = q[u - 1i] + c;
  }
  var n = q[0] - 4.0lf * floor(q[0] * 0.25lf);
  var neg = false;
  if (q[1] >= 8388608.0lf) {
    n = n + 1.0lf;
    neg = true;
    for (var u = 1i; u < 8i; u = u + 1i) { q[u] = 16777215.0lf - q[u]; }
  }
  var k = 1i;
  loop {
    if (k >= 4i || q[k] != 0.0lf) { break; }
    k = k + 1i;
  }
  let hi = q[k] * 5.9604644775390625e-8lf + q[k + 1i] * 3.552713678800501e-15lf;
  let lo = q[k + 2i] * 2.117582368135751e-22lf + q[k + 3i] * 1.2621774483536189e-29lf;
  let f = mf_two_sum_hi(hi, lo);
  let p = mf_two_prod(f.x, 1.5707963267948966lf);
  let err = p.y + f.x * 6.123233995736766e-17lf + f.y * 1.5707963267948966lf;
  var y0 = mf_o(p.x + err);
  var y1 = err - mf_o(y0 - p.x);
  let shift = -24i * (k - 1i);
  y0 = mf_scale(y0, shift);
  y1 = mf_scale(y1, shift);
  if (neg != (x < 0.0lf)) { y0 = -y0; y1 = -y1; }
  var quadrant = i32(n) & 3i;
  if (x < 0.0lf) { quadrant = (4i - quadrant) & 3i; }
  return MfRed(y0, y1, quadrant);
}
""")


#: 12-bit digits of 2/pi for the single-precision reduction (e0 <= 120)
DIGITS_F32 = 20

PAYNE_HANEK_F32 = (
    f"var<private> MF32_IPIO2: array<u32, {DIGITS_F32}> = array<u32, {DIGITS_F32}>("
    + ", ".join(f"{(d >> shift) & 0xFFF}u" for d in _two_over_pi_digits(DIGITS_F32 // 2)
                for shift in (12, 0)) + ");\n"
    + r"""
fn mf32_ipio2(j: i32) -> u32 {
  if (j < 0i) { return 0u; }
  return MF32_IPIO2[j];
}

// finite |x| > 8192: vec2(r, quadrant) with |x| = (quadrant + 4k) * pi/2 + r
fn mf32_rem_pio2_large(ax: f32) -> vec2<f32> {
  let bits = bitcast<u32>(ax);
  let m = (bits & 0x7fffffu) | 0x800000u;
  let e = i32(bits >> 23u) - 127i;
  let e0 = 12i * (e / 12i);
  let s = u32(e - e0 + 1i);
  var xs: array<u32, 3>;
  xs[0] = m >> (24u - s);
  xs[1] = (m >> (12u - s)) & 0xfffu;
  xs[2] = (m << s) & 0xfffu;
  let jv = e0 / 12i - 1i;
  var q: array<u32, 8>;
  for (var u = 0i; u < 8i; u = u + 1i) {
    var acc = 0u;
    for (var i = 0i; i < 3i; i = i + 1i) { acc = acc + xs[i] * mf32_ipio2(jv + u - i); }
    q[u] = acc;
  }
  for (var u = 7i; u > 0i; u = u - 1i) {
    q[u - 1i] = q[u - 1i] + (q[u] >> 12u);
    q[u] = q[u] & 0xfffu;
  }
  var n = q[0] & 3u;
  var neg = false;
  if (q[1] >= 2048u) {
    n = (n + 1u) & 3u;
    neg = true;
    for (var u = 1i; u < 8i; u = u + 1i) { q[u] = 4095u - q[u]; }
  }
  var k = 1i;
  loop {
    if (k >= 5i || q[k] != 0u) { break; }
    k = k + 1i;
  }
  let f = f32(q[k]) * 2.44140625e-4f + f32(q[k + 1i]) * 5.9604644775390625e-8f
          + f32(q[k + 2i]) * 1.4551915228366852e-11f;
  var r = (f * 1.5707963705062866f + f * -4.371139000186243e-8f)
          * bitcast<f32>(u32(127i - 12i * (k - 1i)) << 23u);
  if (neg) { r = -r; }
  return vec2<f32>(r, f32(n));
}
fn mf32_trig_large(x: f32, which: u32) -> f32 {
  // which: 0 sin, 1 cos, 2 tan
  if (!(abs(x) <= 3.4028234663852886e38f)) { return bitcast<f32>(0x7fc00000u); }
  let red = mf32_rem_pio2_large(abs(x));
  let r = red.x;
  var n = u32(red.y);
  var v = 0.0f;
  if (which == 2u) {
    v = mf32_tan_poly(r);
    if ((n & 1u) == 1u) { v = -1.0f / v; }
    return select(v, -v, x < 0.0f);
  }
  if (which == 1u) { n = (n + 1u) & 3u; }
  if ((n & 1u) == 0u) { v = mf32_sin_poly(r); } else { v = mf32_cos_poly(r); }
  if (n >= 2u) { v = -v; }
  if (which == 0u && x < 0.0f) { v = -v; }
  return v;
}
""")
