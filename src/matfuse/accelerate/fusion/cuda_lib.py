"""CUDA C helper functions that generated kernels (and the CUDA provider's own
kernels) call by name: Philox4x32-10 (bit-identical to ``runtime/_philox.py``,
with ``__umulhi``), the u01 conversions, MATLAB ``mod`` and ``power``.

Only CUDA built-ins that the tests' host prelude also defines are used, so
the same source compiles with NVRTC/nvcc and, for the CPU tests, with g++.
"""

from __future__ import annotations

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
    # MATLAB mod: the sign of the divisor, mod(x, 0) = x (NumPy's fmod-based algorithm).
    "mod_f32": """
__device__ __forceinline__ float mf_mod_f32(float x, float y) {
  if (y == 0.0f) return x;
  float r = fmodf(x, y);
  if (r == 0.0f) return 0.0f;  // +0 like x - floor(x/y)*y (fmod keeps x's sign)
  if ((r < 0.0f) != (y < 0.0f)) r += y;
  return r;
}
""",
    "mod_f64": """
__device__ __forceinline__ double mf_mod_f64(double x, double y) {
  if (y == 0.0) return x;
  double r = fmod(x, y);
  if (r == 0.0) return 0.0;  // +0 like x - floor(x/y)*y (fmod keeps x's sign)
  if ((r < 0.0) != (y < 0.0)) r += y;
  return r;
}
""",
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
