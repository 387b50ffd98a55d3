
__device__ __forceinline__ double mf_res53(unsigned int a, unsigned int b) {
  return ((double)(a >> 5) * 67108864.0 + (double)(b >> 6)) * 1.1102230246251565e-16;
}

extern "C" __global__ void mf_twister_convert(const unsigned int* __restrict__ words,
    double* __restrict__ out, const unsigned long long n, const int kind,
    const double lo, const double span) {
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)blockDim.x * gridDim.x) {
    double v;
    if (kind == 1) {
      const double u1 = mf_res53(words[4ull * i], words[4ull * i + 1ull]);
      const double u2 = mf_res53(words[4ull * i + 2ull], words[4ull * i + 3ull]);
      v = sqrt(-2.0 * log1p(-u1)) * cos(6.283185307179586 * u2);
    } else {
      v = mf_res53(words[2ull * i], words[2ull * i + 1ull]);
      if (kind == 2) v = lo + floor(v * span);
    }
    out[i] = (double)v;
  }
}
