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
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < h0; i += blockDim.x * gridDim.x) {
    const unsigned int v1 = i * 4u + 0u;
    const unsigned int v2 = i * 4u + 1u;
    const unsigned int v3 = i * 4u + 2u;
    const unsigned int v4 = i * 4u + 3u;
    float c5 = s0;
    float c6 = s1;
    float c7 = s0;
    float c8 = s1;
    float c9 = s0;
    float c10 = s1;
    float c11 = s0;
    float c12 = s1;
    unsigned int c13 = 0u;
    unsigned int c14 = 0u;
    for (unsigned int k15 = 0u; k15 < h2; ++k15) {
      const unsigned int v16 = h7 + c13;
      const unsigned int v17 = h8 + c14 + ((v16 < h7) ? 1u : 0u);
      const unsigned int v18 = v16 + i;
      const unsigned int v19 = v17 + ((v18 < v16) ? 1u : 0u);
      const mf_u4 w20 = mf_philox(v18, v19, h5, h6);
      const float v21 = mf_u01_f32(mf_word(w20, 0u));
      const float v22 = mf_u01_f32(mf_word(w20, 0u + 1u));
      const float v23 = sqrtf(-2.0f * logf(v21));
      float sn24, cs25;
      sincospif(2.0f * v22, &sn24, &cs25);
      const float v26 = v23 * sn24;
      const float v27 = v23 * cs25;
      const float v28 = (s3 * v27);
      const float v29 = (s2 + v28);
      const float v30 = expf(v29);
      const float v31 = (c5 * v30);
      const float v32 = (c6 + v31);
      const float v33 = (s3 * v26);
      const float v34 = (s2 + v33);
      const float v35 = expf(v34);
      const float v36 = (c7 * v35);
      const float v37 = (c8 + v36);
      const float v38 = mf_u01_f32(mf_word(w20, 2u));
      const float v39 = mf_u01_f32(mf_word(w20, 2u + 1u));
      const float v40 = sqrtf(-2.0f * logf(v38));
      float sn41, cs42;
      sincospif(2.0f * v39, &sn41, &cs42);
      const float v43 = v40 * sn41;
      const float v44 = v40 * cs42;
      const float v45 = (s3 * v44);
      const float v46 = (s2 + v45);
      const float v47 = expf(v46);
      const float v48 = (c9 * v47);
      const float v49 = (c10 + v48);
      const float v50 = (s3 * v43);
      const float v51 = (s2 + v50);
      const float v52 = expf(v51);
      const float v53 = (c11 * v52);
      const float v54 = (c12 + v53);
      c5 = v31;
      c6 = v32;
      c7 = v36;
      c8 = v37;
      c9 = v48;
      c10 = v49;
      c11 = v53;
      c12 = v54;
      const unsigned int v55 = c13 + h3;
      c14 = c14 + h4 + ((v55 < c13) ? 1u : 0u);
      c13 = v55;
    }
    reinterpret_cast<float4*>(out0)[i] = make_float4(c5, c7, c9, c11);
    reinterpret_cast<float4*>(out1)[i] = make_float4(c6, c8, c10, c12);
  }
}
