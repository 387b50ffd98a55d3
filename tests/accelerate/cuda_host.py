"""Run generated CUDA C on the CPU (tests only, no GPU needed).

Every matfuse CUDA kernel is a grid-stride loop, so launching it with one
block of one thread computes the whole result (shared memory becomes a
static array, ``__syncthreads`` a no-op and ``atomicAdd`` a plain add). This
module compiles kernel source with ``g++`` behind a small prelude that maps
the CUDA built-ins the kernels use (``blockIdx``, ``__umulhi``,
``__int_as_float``...) to host C++, and calls the kernel through ctypes.

Kernels that fold across a block (warp shuffles, ``BLOCK_FOLD_MARKER``:
the partial passes of ``render_cuda``) need the whole block: they run as one
block of ``__launch_bounds__`` host threads (``threadIdx`` thread-local,
``__syncthreads`` a pthread barrier, a shuffle two barriers around a static
exchange array), still one block for the whole grid.

``HostCudaProvider`` is the InProcessProvider with ``fused_elementwise``
running CUDA-rendered kernels this way, so the FusionExecutor + CudaRenderer
path can be checked end to end against ``host_eval``.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import re
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from matfuse.accelerate.fusion.cuda_partial import BLOCK_FOLD_MARKER
from matfuse.accelerate.providers.inprocess import InProcessProvider
from matfuse.accelerate_api import GpuTensorHandle

PRELUDE = r"""
#include <math.h>
#include <string.h>
#include <pthread.h>
#define __global__
#define __device__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(n)
struct mf_dim3 { unsigned int x, y, z; };
static const mf_dim3 blockIdx = {0u, 0u, 0u}, gridDim = {1u, 1u, 1u};
static thread_local mf_dim3 threadIdx = {0u, 0u, 0u};
static mf_dim3 blockDim = {1u, 1u, 1u};
static pthread_barrier_t mf_block_barrier;
static inline void __syncthreads() { if (blockDim.x > 1u) pthread_barrier_wait(&mf_block_barrier); }
extern "C" void mf_host_block(unsigned int n) {
  if (blockDim.x > 1u) pthread_barrier_destroy(&mf_block_barrier);
  blockDim.x = n;
  if (n > 1u) pthread_barrier_init(&mf_block_barrier, NULL, n);
}
extern "C" void mf_host_thread(unsigned int t) { threadIdx.x = t; }
template <typename T> static inline T __shfl_down_sync(unsigned int, T v, unsigned int delta) {
  static T lanes[1024];
  lanes[threadIdx.x] = v;
  __syncthreads();
  const bool inside = (threadIdx.x & 31u) + delta < 32u && threadIdx.x + delta < blockDim.x;
  const T out = inside ? lanes[threadIdx.x + delta] : v;
  __syncthreads();
  return out;
}
// Host round-to-nearest float/double arithmetic (SSE) is IEEE: 1/d rounded
// once IS the correctly rounded reciprocal, as __frcp_rn/__drcp_rn are.
static inline float __frcp_rn(float d) { return 1.0f / d; }
static inline double __drcp_rn(double d) { return 1.0 / d; }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline unsigned int __umulhi(unsigned int a, unsigned int b) {
  return (unsigned int)(((unsigned long long)a * (unsigned long long)b) >> 32);
}
static inline float __int_as_float(int x) { float f; memcpy(&f, &x, sizeof f); return f; }
static inline double __longlong_as_double(long long x) { double d; memcpy(&d, &x, sizeof d); return d; }
static inline unsigned int __float_as_uint(float f) { unsigned int x; memcpy(&x, &f, sizeof x); return x; }
static inline long long __double_as_longlong(double d) { long long x; memcpy(&x, &d, sizeof x); return x; }
struct float4 { float x, y, z, w; };
struct double2 { double x, y; };
struct float2 { float x, y; };
static inline float4 make_float4(float x, float y, float z, float w) { float4 v = {x, y, z, w}; return v; }
static inline double2 make_double2(double x, double y) { double2 v = {x, y}; return v; }
static inline float2 make_float2(float x, float y) { float2 v = {x, y}; return v; }
#define __shared__ static
static inline unsigned int atomicAdd(unsigned int* a, unsigned int v) { unsigned int o = *a; *a += v; return o; }
static inline void sincospif(float x, float* s, float* c) {
  *s = (float)sin(3.14159265358979323846 * (double)x); *c = (float)cos(3.14159265358979323846 * (double)x);
}
"""

_BUILD_DIR = Path(tempfile.gettempdir()) / "matfuse_cuda_host"
# no contraction of a*b+c into fma: the kernels' rounding is what is tested
_GXX_FLAGS = ("-O0", "-ffp-contract=off", "-shared", "-fPIC", "-pthread")
BLOCK_DEADLINE_S = 120.0
_LAUNCH_BOUNDS = re.compile(r"__launch_bounds__\((\d+)\)")
_LIBS: dict[str, ctypes.CDLL] = {}


def build_dir() -> Path:
    """Where compiled host libraries are kept (created on demand)."""
    _BUILD_DIR.mkdir(parents=True, exist_ok=True)
    return _BUILD_DIR


def gxx_available() -> bool:
    return shutil.which("g++") is not None


def load(source: str) -> ctypes.CDLL:
    """Compile ``source`` (CUDA C of a matfuse kernel) for the host; cached."""
    key = hashlib.sha256((" ".join(_GXX_FLAGS) + PRELUDE + source).encode()).hexdigest()[:24]
    if key in _LIBS:
        return _LIBS[key]
    _BUILD_DIR.mkdir(parents=True, exist_ok=True)
    lib = _BUILD_DIR / f"{key}.so"
    if not lib.exists():
        # Written under a name of this process and renamed into place: test
        # runs sharing the folder must never load a library still being written.
        own = f"{key}.{os.getpid()}.{threading.get_ident()}"
        src = _BUILD_DIR / f"{own}.cpp"
        partial = _BUILD_DIR / f"{own}.so"
        src.write_text(PRELUDE + source)
        try:
            subprocess.run(["g++", *_GXX_FLAGS, "-o", str(partial), str(src)],
                           check=True, capture_output=True, text=True)
            os.replace(partial, lib)
        finally:
            src.unlink(missing_ok=True)
            partial.unlink(missing_ok=True)
    _LIBS[key] = ctypes.CDLL(str(lib))
    return _LIBS[key]


def block_threads(source: str) -> int:
    """Host threads a kernel needs: its whole block (``__launch_bounds__``)
    when its threads cooperate (warp shuffles, a block fold), else 1."""
    if "__shfl_down_sync(" not in source and BLOCK_FOLD_MARKER not in source:
        return 1
    found = _LAUNCH_BOUNDS.search(source)
    return int(found.group(1)) if found else 256


def call(source: str, entry: str, args: Sequence[Any]) -> None:
    """Call kernel ``entry`` as one block (see ``block_threads``) looping over everything.

    ``args``: ndarrays (passed as pointers; must be contiguous), and
    NumPy scalars ``np.uint32``/``np.int32``/``np.uint64``/``np.float32``/``np.float64``.
    """
    lib = load(source)
    fn = getattr(lib, entry)
    converted = []
    for a in args:
        if isinstance(a, np.ndarray):
            assert a.flags.c_contiguous
            converted.append(ctypes.c_void_p(a.ctypes.data))
        elif isinstance(a, np.uint32):
            converted.append(ctypes.c_uint32(int(a)))
        elif isinstance(a, np.int32):
            converted.append(ctypes.c_int32(int(a)))
        elif isinstance(a, np.uint64):
            converted.append(ctypes.c_uint64(int(a)))
        elif isinstance(a, np.int64):
            converted.append(ctypes.c_int64(int(a)))
        elif isinstance(a, np.float32):
            converted.append(ctypes.c_float(float(a)))
        elif isinstance(a, np.float64):
            converted.append(ctypes.c_double(float(a)))
        else:
            raise TypeError(f"unsupported kernel argument {type(a)}")
    fn.restype = None
    threads = block_threads(source)
    lib.mf_host_block(ctypes.c_uint(threads))
    if threads == 1:
        lib.mf_host_thread(ctypes.c_uint(0))
        fn(*converted)
        return

    def run(t: int) -> None:
        # ctypes releases the GIL: the block's threads meet at the barriers
        lib.mf_host_thread(ctypes.c_uint(t))
        fn(*converted)

    # daemon threads and a deadline: a kernel whose threads miss a barrier
    # fails the test instead of hanging it
    workers = [threading.Thread(target=run, args=(t,), daemon=True) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=BLOCK_DEADLINE_S)
        if w.is_alive():
            raise RuntimeError(f"{entry}: the block's threads did not finish (a missed __syncthreads?)")
    lib.mf_host_block(ctypes.c_uint(1))


class HostCudaProvider(InProcessProvider):
    """InProcessProvider whose fused_elementwise runs CUDA-rendered kernels on the CPU."""

    name = "cuda-host"

    def fused_elementwise(self, kernel: Any, inputs: Sequence[GpuTensorHandle],
                          scalars: Sequence[float],
                          outputs: Sequence[tuple[tuple[int, ...], str]]) -> list[GpuTensorHandle]:
        self._dispatch("fused_elementwise")
        ins = [np.ascontiguousarray(self._get(h).reshape(-1, order="F")) for h in inputs]
        outs = [np.zeros(int(np.prod(shape)), dtype=dtype) for shape, dtype in outputs]
        sdt = np.float64 if kernel.float_type == "f64" else np.float32
        args = ins + outs + [np.uint32(h) for h in kernel.header] + [sdt(s) for s in scalars]
        if kernel.threads > 0:
            call(kernel.source, kernel.entry_point, args)
        return [self._store(o.reshape(shape, order="F")) for o, (shape, _) in zip(outs, outputs)]
