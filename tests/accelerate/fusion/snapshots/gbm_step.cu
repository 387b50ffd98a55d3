// matfuse fused kernel (CUDA C, generated)

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

__device__ __forceinline__ float mf_u01_f32(unsigned int x) {
  return ((float)(x >> 9) + 0.5f) * (1.0f / 8388608.0f);
}

extern "C" __global__ void __launch_bounds__(256) mf_fused(
    float* __restrict__ out0,
    const unsigned int h0,
    const unsigned int h1,
    const unsigned int h2,
    const unsigned int h3,
    const unsigned int h4,
    const unsigned int h5,
    const float s0,
    const float s1) {
  #pragma unroll 4
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < h0; i += blockDim.x * gridDim.x) {
    const unsigned int v1 = i >> 2;
    const unsigned int v2 = h4 + v1;
    const unsigned int v3 = h5 + (v2 < h4 ? 1u : 0u);
    const mf_u4 w4 = mf_philox(v2, v3, h2, h3);
    const unsigned int v5 = (i & 2u);
    const float v6 = mf_u01_f32(mf_word(w4, v5));
    const float v7 = mf_u01_f32(mf_word(w4, v5 + 1u));
    const float v8 = sqrtf(-2.0f * logf(v6));
    float sn9, cs10;
    sincospif(2.0f * v7, &sn9, &cs10);
    const float v11 = (((i & 1u) == 1u) ? v8 * sn9 : v8 * cs10);
    const float v12 = (s1 + v11);
    const float v13 = expf(v12);
    const float v14 = (s0 * v13);
    out0[i] = v14;
  }
}
