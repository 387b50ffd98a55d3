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
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < h0; i += blockDim.x * gridDim.x) {
    const unsigned int v1 = i * 4u + 0u;
    const unsigned int v2 = i * 4u + 1u;
    const unsigned int v3 = i * 4u + 2u;
    const unsigned int v4 = i * 4u + 3u;
    const unsigned int v5 = h4 + i;
    const unsigned int v6 = h5 + ((v5 < h4) ? 1u : 0u);
    const mf_u4 w7 = mf_philox(v5, v6, h2, h3);
    const float v8 = mf_u01_f32(mf_word(w7, 0u));
    const float v9 = mf_u01_f32(mf_word(w7, 0u + 1u));
    const float v10 = sqrtf(-2.0f * logf(v8));
    float sn11, cs12;
    sincospif(2.0f * v9, &sn11, &cs12);
    const float v13 = v10 * sn11;
    const float v14 = v10 * cs12;
    const float v15 = (s1 + v14);
    const float v16 = expf(v15);
    const float v17 = (s0 * v16);
    const float v18 = (s1 + v13);
    const float v19 = expf(v18);
    const float v20 = (s0 * v19);
    const float v21 = mf_u01_f32(mf_word(w7, 2u));
    const float v22 = mf_u01_f32(mf_word(w7, 2u + 1u));
    const float v23 = sqrtf(-2.0f * logf(v21));
    float sn24, cs25;
    sincospif(2.0f * v22, &sn24, &cs25);
    const float v26 = v23 * sn24;
    const float v27 = v23 * cs25;
    const float v28 = (s1 + v27);
    const float v29 = expf(v28);
    const float v30 = (s0 * v29);
    const float v31 = (s1 + v26);
    const float v32 = expf(v31);
    const float v33 = (s0 * v32);
    reinterpret_cast<float4*>(out0)[i] = make_float4(v17, v20, v30, v33);
  }
}
