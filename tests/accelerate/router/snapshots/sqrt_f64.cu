// matfuse fused kernel (CUDA C, generated)

extern "C" __global__ void __launch_bounds__(256) mf_fused(
    const double* __restrict__ in0,
    double* __restrict__ out0,
    unsigned int* __restrict__ flag,
    const unsigned int h0,
    const unsigned int h1) {
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < h0; i += blockDim.x * gridDim.x) {
    const unsigned int v1 = i * 2u + 0u;
    const unsigned int v2 = i * 2u + 1u;
    const double2 vec3 = reinterpret_cast<const double2*>(in0)[i];
    if (vec3.x < 0.0) { flag[0] = 1u; }
    const double v4 = sqrt(vec3.x);
    if (vec3.y < 0.0) { flag[0] = 1u; }
    const double v5 = sqrt(vec3.y);
    reinterpret_cast<double2*>(out0)[i] = make_double2(v4, v5);
  }
}
