// matfuse fused kernel (CUDA C, generated)

extern "C" __global__ void __launch_bounds__(256) mf_fused(
    const double* __restrict__ in0,
    const double* __restrict__ in1,
    double* __restrict__ out0,
    const unsigned int h0,
    const unsigned int h1) {
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < h0; i += blockDim.x * gridDim.x) {
    const unsigned int v1 = i * 2u + 0u;
    const unsigned int v2 = i * 2u + 1u;
    const double2 vec3 = reinterpret_cast<const double2*>(in0)[i];
    const double2 vec4 = reinterpret_cast<const double2*>(in1)[i];
    const double v5 = (vec3.x + vec4.x);
    const double v6 = (vec3.y + vec4.y);
    reinterpret_cast<double2*>(out0)[i] = make_double2(v5, v6);
  }
}
