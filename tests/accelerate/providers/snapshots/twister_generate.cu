
__device__ __forceinline__ unsigned int mf_temper(unsigned int x) {
  unsigned int y = x ^ (x >> 11);
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  return y ^ (y >> 18);
}

// Words from..to-1 of a twist: word i from mt[i], mt[i+1] and mt[i+397] (mod 624).
__device__ void mf_twist_stage(unsigned int* mt, unsigned int from, unsigned int to) {
  for (unsigned int base = from; base < to; base += blockDim.x) {
    const unsigned int i = base + threadIdx.x;
    unsigned int y = 0u;
    if (i < to) {
      const unsigned int mix = (mt[i] & 0x80000000u) | (mt[(i + 1u) % 624u] & 0x7fffffffu);
      y = mt[(i + 397u) % 624u] ^ (mix >> 1) ^ ((mix & 1u) ? 0x9908b0dfu : 0u);
    }
    __syncthreads();
    if (i < to) mt[i] = y;
    __syncthreads();
  }
}

extern "C" __global__ void __launch_bounds__(256) mf_twister_generate(
    unsigned int* __restrict__ state, unsigned int* __restrict__ words,
    const unsigned int n, const unsigned int pos0) {
  __shared__ unsigned int mt[624];
  for (unsigned int i = threadIdx.x; i < 624u; i += blockDim.x) mt[i] = state[i];
  __syncthreads();
  unsigned int done = 0u, pos = pos0;
  while (done < n) {
    if (pos == 624u) {
      mf_twist_stage(mt, 0u, 227u);
      mf_twist_stage(mt, 227u, 454u);
      mf_twist_stage(mt, 454u, 623u);
      mf_twist_stage(mt, 623u, 624u);
      pos = 0u;
    }
    const unsigned int take = (624u - pos < n - done) ? 624u - pos : n - done;
    for (unsigned int i = threadIdx.x; i < take; i += blockDim.x) words[done + i] = mf_temper(mt[pos + i]);
    done += take;
    pos += take;
  }
  __syncthreads();
  for (unsigned int i = threadIdx.x; i < 624u; i += blockDim.x) state[i] = mt[i];
}
