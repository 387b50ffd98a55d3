// matfuse fused kernel (CUDA C, generated)

__device__ __forceinline__ float mf_pow_f32(float a, float b) {
  if (b == 2.0f) return a * a;
  if (b == 1.0f) return a;
  return powf(a, b);
}

extern "C" __global__ void __launch_bounds__(256) mf_fused(
    float* __restrict__ out0,
    const unsigned int h0,
    const unsigned int h1,
    const double s0,
    const double s1,
    const double s2,
    const double s3,
    const double s4,
    const double s5,
    const double s6,
    const double s7,
    const double s8,
    const double s9,
    const double s10) {
  for (unsigned int g = blockIdx.x * blockDim.x + threadIdx.x; g < h0; g += blockDim.x * gridDim.x) {
    const unsigned int c = g / 8u;
    const unsigned int tt = g % 8u;
    float acc0 = 0.0f;
    for (unsigned int q = tt; q < 500u; q += 8u) {
      const unsigned int v1 = q * 2u + 1000u * c;
      const unsigned int v2 = v1 + 1u;
      const unsigned int v3 = v1 / 2u;
      const double v4 = (v1 == 999u ? s1 : s0 + (double)v1 * s2);
      const float v5 = ((float)v4);
      const float v6 = sinf(v5);
      const float v7 = (-v5);
      const float v8 = (v7 / ((float)s3));
      const float v9 = expf(v8);
      const float v10 = (v6 * v9);
      const float v11 = (v5 / ((float)s4));
      const float v12 = cosf(v11);
      const float v13 = (v10 * v12);
      const float v14 = mf_pow_f32(v10, ((float)s6));
      const float v15 = (((float)s5) * v14);
      const float v16 = (v13 + v15);
      const float v17 = tanhf(v16);
      const float v18 = (((float)s7) * v16);
      const float v19 = (v17 + v18);
      acc0 = acc0 + v19;
      const double v20 = (v2 == 999u ? s9 : s8 + (double)v2 * s10);
      const float v21 = ((float)v20);
      const float v22 = sinf(v21);
      const float v23 = (-v21);
      const float v24 = (v23 / ((float)s3));
      const float v25 = expf(v24);
      const float v26 = (v22 * v25);
      const float v27 = (v21 / ((float)s4));
      const float v28 = cosf(v27);
      const float v29 = (v26 * v28);
      const float v30 = mf_pow_f32(v26, ((float)s6));
      const float v31 = (((float)s5) * v30);
      const float v32 = (v29 + v31);
      const float v33 = tanhf(v32);
      const float v34 = (((float)s7) * v32);
      const float v35 = (v33 + v34);
      acc0 = acc0 + v35;
    }
    out0[g] = acc0;
  }
}
