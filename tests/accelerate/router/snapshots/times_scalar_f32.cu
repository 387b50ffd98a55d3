// matfuse fused kernel (CUDA C, generated)

extern "C" __global__ void __launch_bounds__(256) mf_fused(
    const float* __restrict__ in0,
    float* __restrict__ out0,
    const unsigned int h0,
    const unsigned int h1,
    const float s0) {
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < h0; i += blockDim.x * gridDim.x) {
    const unsigned int v1 = i * 4u + 0u;
    const unsigned int v2 = i * 4u + 1u;
    const unsigned int v3 = i * 4u + 2u;
    const unsigned int v4 = i * 4u + 3u;
    const float4 vec5 = reinterpret_cast<const float4*>(in0)[i];
    const float v6 = (vec5.x * s0);
    const float v7 = (vec5.y * s0);
    const float v8 = (vec5.z * s0);
    const float v9 = (vec5.w * s0);
    reinterpret_cast<float4*>(out0)[i] = make_float4(v6, v7, v8, v9);
  }
}
