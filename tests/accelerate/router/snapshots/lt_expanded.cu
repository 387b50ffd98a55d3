// matfuse fused kernel (CUDA C, generated)

extern "C" __global__ void __launch_bounds__(256) mf_fused(
    const double* __restrict__ in0,
    const double* __restrict__ in1,
    bool* __restrict__ out0,
    const unsigned int h0,
    const unsigned int h1) {
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < h0; i += blockDim.x * gridDim.x) {
    const double v1 = in0[i];
    const unsigned int v2 = ((i / 64u) % 8u);
    const double v3 = in1[v2];
    const bool v4 = (v1 < v3);
    out0[i] = v4;
  }
}
