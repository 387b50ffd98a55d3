"""MT19937 on CUDA: the host's twister stream, word for word.

The same two steps as the wgpu kernels (``wgpu/shaders/twister.py``), for
the stream and formulas of ``runtime/_mt19937.py``:

* ``mf_twister_generate`` (one thread block): the 624-word state in shared
  memory; every twist of the block runs as three stages (227, 227 and 170
  independent words) writing the next block into the other half of a
  two-block ring, one barrier per stage, so any block size (one host
  thread in the CPU tests) computes the same words; the block's words are
  tempered and written out.
  The state is read from and written back to a 624-word device array; the
  host passes the position within the block.
* ``mf_twister_convert`` (grid-stride): words -> uniform doubles (exact),
  singles (round to nearest), Box-Muller normals (CUDA's ``log1p``/``cos``,
  within a few ulps of NumPy) or randi integers.

Values are drawn in chunks, so the scratch words stay below
``_CHUNK_VALUES * 4`` words.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate_api.support import twister

GENERATE_THREADS = 256
_CHUNK_VALUES = 1 << 22
_KINDS = {"uniform": 0, "normal": 1, "randi": 2}
_C_TYPES = {"float64": "double", "float32": "float", "int8": "signed char", "int16": "short",
            "int32": "int", "int64": "long long", "uint8": "unsigned char",
            "uint16": "unsigned short", "uint32": "unsigned int", "uint64": "unsigned long long"}
#: output dtypes per draw kind
OUTPUT_DTYPES = {"uniform": ("float64", "float32"), "normal": ("float64", "float32"),
                 "randi": tuple(_C_TYPES)}

GENERATE_SOURCE = r"""
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
"""

_CONVERT_TEMPLATE = r"""
__device__ __forceinline__ double mf_res53(unsigned int a, unsigned int b) {
  return ((double)(a >> 5) * 67108864.0 + (double)(b >> 6)) * 1.1102230246251565e-16;
}

extern "C" __global__ void mf_twister_convert(const unsigned int* __restrict__ words,
    OUT_T* __restrict__ out, const unsigned long long n, const int kind,
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
    out[i] = (OUT_T)v;
  }
}
"""


def convert_source(dtype: str) -> str:
    """CUDA C of the conversion kernel writing ``dtype`` values."""
    return _CONVERT_TEMPLATE.replace("OUT_T", _C_TYPES[dtype])


def draw(kernels: Any, kind: str, n: int, dtype: str, state: Any, pos: int,
         limits: tuple[float, float]) -> Any:
    """``n`` values (1-D CuPy array of ``dtype``) continuing the stream whose
    624 words are the uint32 CuPy array ``state`` (advanced in place)."""
    cp = kernels.cp
    per_value = twister.WORDS_PER_VALUE[kind]
    out = cp.empty(n, dtype=dtype)
    if n == 0:
        return out
    flat_state = state.reshape(-1)
    words = cp.empty(min(n, _CHUNK_VALUES) * per_value, dtype=np.uint32)
    generate = kernels.cache.function(GENERATE_SOURCE, "mf_twister_generate")
    lo, span = float(limits[0]), float(limits[1] - limits[0] + 1.0)
    position = int(pos)
    for start in range(0, n, _CHUNK_VALUES):
        count = min(_CHUNK_VALUES, n - start)
        generate((1,), (GENERATE_THREADS,),
                 (flat_state, words, np.uint32(count * per_value), np.uint32(position)))
        position = twister.position_after(position, count * per_value)
        kernels.launch(convert_source(dtype), "mf_twister_convert", count,
                       (words, out[start:start + count], np.uint64(count), np.int32(_KINDS[kind]),
                        np.float64(lo), np.float64(span)))
    return out
