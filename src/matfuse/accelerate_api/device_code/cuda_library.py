"""CUDA C helper functions that generated kernels (and the CUDA provider's own
kernels) call by name: Philox4x32-10 (bit-identical to ``runtime/_philox.py``,
with ``__umulhi``), the u01 conversions, MATLAB ``mod``, ``rem`` and ``power``.

Only CUDA built-ins that the tests' host prelude also defines are used, so
the same source compiles with NVRTC/nvcc and, for the CPU tests, with g++.
"""

from __future__ import annotations

def _remainder(op: str, t: str) -> str:
    """MATLAB ``mod`` (floor) / ``rem`` (fix) as the host and the WGSL
    kernels compute them (``shaders/special_values.py``): ``a - b*n`` with
    ``n`` the floored / truncated quotient, exactly 0 when the quotient is
    within one eps of a nonzero integer (``b`` not an integer); ``mod(a, 0)``
    is ``a``, ``rem(a, 0)`` NaN."""
    c, sfx, eps = (("float", "f", "1.1920928955078125e-7f") if t == "f32" else
                   ("double", "", "2.220446049250313e-16"))
    if op == "mod":
        zero, whole = "a", f"floor{sfx}(q)"
    else:
        zero = "__int_as_float(0x7fc00000)" if t == "f32" else "__longlong_as_double(0x7ff8000000000000LL)"
        whole = f"(q < 0 ? -floor{sfx}(-q) : floor{sfx}(q))"
    mul = "__fmul_rn" if t == "f32" else "__dmul_rn"
    return f"""
__device__ __forceinline__ {c} mf_{op}_{t}({c} a, {c} b) {{
  if (b == 0) return {zero};
  const {c} q = a / b;
  const {c} k = round{sfx}(q);
  if (floor{sfx}(b) != b && k != 0 && fabs{sfx}((q - k) / k) < {eps}) return 0;
  // the product rounded on its own, as the host's a - b*n (a fused
  // multiply-add would leave the exact residue of a huge quotient)
  return a - {mul}(b, {whole});
}}
"""


def _hypot(t: str) -> str:
    """``hypot`` scaled by the larger magnitude, as the WGSL library computes
    it: CUDA's ``hypot`` overflows to Inf when the result is near realmax.
    Inf when either argument is infinite (even with a NaN), NaN otherwise
    for a NaN argument."""
    c, sfx, big, inf = (("float", "f", "3.4028234663852886e38f", "__int_as_float(0x7f800000)")
                        if t == "f32" else
                        ("double", "", "1.7976931348623157e308",
                         "__longlong_as_double(0x7ff0000000000000LL)"))
    return f"""
__device__ __forceinline__ {c} mf_hypot_{t}({c} a, {c} b) {{
  const {c} x = fabs{sfx}(a), y = fabs{sfx}(b);
  if (x > {big} || y > {big}) return {inf};
  if (x != x || y != y) return x + y;
  const {c} m = x > y ? x : y;
  if (m == 0) return m;
  const {c} r = (x > y ? y : x) / m;
  return m * sqrt{sfx}(1 + r * r);
}}
"""


HELPERS: dict[str, str] = {
    "philox": """
struct mf_u4 { unsigned int x, y, z, w; };
__device__ __forceinline__ mf_u4 mf_philox(unsigned int c0, unsigned int c1,
                                           unsigned int k0, unsigned int k1) {
  unsigned int c2 = 0u, c3 = 0u;
  for (int rnd = 0; rnd < 10; ++rnd) {
    if (rnd > 0) { k0 += 0x9E3779B9u; k1 += 0xBB67AE85u; }
    const unsigned int hi0 = __umulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    const unsigned int hi1 = __umulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    const unsigned int n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
    c0 = n0; c1 = lo1; c2 = n2; c3 = lo0;
  }
  mf_u4 r = {c0, c1, c2, c3};
  return r;
}
__device__ __forceinline__ unsigned int mf_word(mf_u4 w, unsigned int j) {
  return j == 0u ? w.x : (j == 1u ? w.y : (j == 2u ? w.z : w.w));
}
""",
    "u01_f64": """
__device__ __forceinline__ double mf_u01_f64(unsigned int a, unsigned int b) {
  return ((double)(a >> 5) * 67108864.0 + (double)(b >> 6) + 0.5) * (1.0 / 9007199254740992.0);
}
""",
    "u01_f32": """
__device__ __forceinline__ float mf_u01_f32(unsigned int x) {
  return ((float)(x >> 9) + 0.5f) * (1.0f / 8388608.0f);
}
""",
    **{f"{op}_{t}": _remainder(op, t) for op in ("mod", "rem") for t in ("f32", "f64")},
    **{f"hypot_{t}": _hypot(t) for t in ("f32", "f64")},
    "pow_f32": """
__device__ __forceinline__ float mf_pow_f32(float a, float b) {
  if (b == 2.0f) return a * a;
  if (b == 1.0f) return a;
  return powf(a, b);
}
""",
    "pow_f64": """
__device__ __forceinline__ double mf_pow_f64(double a, double b) {
  if (b == 2.0) return a * a;
  if (b == 1.0) return a;
  return pow(a, b);
}
""",
}


def library(names: set[str]) -> str:
    """Source of the helpers in ``names``, each once, in a stable order."""
    return "".join(HELPERS[name] for name in sorted(names))
