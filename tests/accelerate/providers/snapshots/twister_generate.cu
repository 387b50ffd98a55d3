
__device__ __forceinline__ unsigned int mf_temper(unsigned int x) {
  unsigned int y = x ^ (x >> 11);
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  return y ^ (y >> 18);
}

__device__ __forceinline__ unsigned int mf_twist(unsigned int a, unsigned int b, unsigned int far) {
  const unsigned int y = (a & 0x80000000u) | (b & 0x7fffffffu);
  return far ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
}

extern "C" __global__ void __launch_bounds__(256) mf_twister_generate(
    unsigned int* __restrict__ state, unsigned int* __restrict__ words,
    const unsigned int n, const unsigned int pos0) {
  // two 624-word halves: the current block and the one the next twist writes
  __shared__ unsigned int ring[1248];
  for (unsigned int i = threadIdx.x; i < 624u; i += blockDim.x) ring[i] = state[i];
  __syncthreads();
  unsigned int cur = 0u, done = 0u, pos = pos0;
  while (done < n) {
    if (pos == 624u) {
      // old half at cur, new half at nw: no word is read and written in one stage
      const unsigned int nw = 624u - cur;
      for (unsigned int i = threadIdx.x; i < 227u; i += blockDim.x)
        ring[nw + i] = mf_twist(ring[cur + i], ring[cur + i + 1u], ring[cur + i + 397u]);
      __syncthreads();
      for (unsigned int i = 227u + threadIdx.x; i < 454u; i += blockDim.x)
        ring[nw + i] = mf_twist(ring[cur + i], ring[cur + i + 1u], ring[nw + i - 227u]);
      __syncthreads();
      for (unsigned int i = 454u + threadIdx.x; i < 624u; i += blockDim.x)
        ring[nw + i] = mf_twist(ring[cur + i], i == 623u ? ring[nw] : ring[cur + i + 1u],
                                ring[nw + i - 227u]);
      __syncthreads();
      cur = nw;
      pos = 0u;
    }
    const unsigned int take = (624u - pos < n - done) ? 624u - pos : n - done;
    for (unsigned int i = threadIdx.x; i < take; i += blockDim.x)
      words[done + i] = mf_temper(ring[cur + pos + i]);
    done += take;
    pos += take;
  }
  __syncthreads();
  for (unsigned int i = threadIdx.x; i < 624u; i += blockDim.x) state[i] = ring[cur + i];
}
