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
    const double s7) {
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < h0; i += blockDim.x * gridDim.x) {
    const double v1 = (i == 999u ? s1 : s0 + (double)i * s2);
    const float v2 = ((float)v1);
    const float v3 = sinf(v2);
    const float v4 = (-v2);
    const float v5 = (v4 / ((float)s3));
    const float v6 = expf(v5);
    const float v7 = (v3 * v6);
    const float v8 = (v2 / ((float)s4));
    const float v9 = cosf(v8);
    const float v10 = (v7 * v9);
    const float v11 = mf_pow_f32(v7, ((float)s6));
    const float v12 = (((float)s5) * v11);
    const float v13 = (v10 + v12);
    const float v14 = tanhf(v13);
    const float v15 = (((float)s7) * v13);
    const float v16 = (v14 + v15);
    out0[i] = v16;
  }
}
