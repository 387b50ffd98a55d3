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
    float* __restrict__ out1,
    const unsigned int h0,
    const unsigned int h1,
    const unsigned int h2,
    const unsigned int h3,
    const unsigned int h4,
    const unsigned int h5,
    const unsigned int h6,
    const unsigned int h7,
    const unsigned int h8,
    const float s0,
    const float s1,
    const float s2,
    const float s3) {
  #pragma unroll 4
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < h0; i += blockDim.x * gridDim.x) {
    float c1 = s0;
    float c2 = s1;
    unsigned int c3 = 0u;
    unsigned int c4 = 0u;
    for (unsigned int k5 = 0u; k5 < h2; ++k5) {
      const unsigned int v6 = h7 + c3;
      const unsigned int v7 = h8 + c4 + (v6 < h7 ? 1u : 0u);
      const unsigned int v8 = i >> 2;
      const unsigned int v9 = v6 + v8;
      const unsigned int v10 = v7 + (v9 < v6 ? 1u : 0u);
      const mf_u4 w11 = mf_philox(v9, v10, h5, h6);
      const unsigned int v12 = (i & 2u);
      const float v13 = mf_u01_f32(mf_word(w11, v12));
      const float v14 = mf_u01_f32(mf_word(w11, v12 + 1u));
      const float v15 = sqrtf(-2.0f * logf(v13));
      float sn16, cs17;
      sincospif(2.0f * v14, &sn16, &cs17);
      const float v18 = (((i & 1u) == 1u) ? v15 * sn16 : v15 * cs17);
      const float v19 = (s3 * v18);
      const float v20 = (s2 + v19);
      const float v21 = expf(v20);
      const float v22 = (c1 * v21);
      const float v23 = (c2 + v22);
      c1 = v22;
      c2 = v23;
      const unsigned int v24 = c3 + h3;
      c4 = c4 + h4 + (v24 < c3 ? 1u : 0u);
      c3 = v24;
    }
    out0[i] = c1;
    out1[i] = c2;
  }
}
