"""Raw CUDA kernels of the CUDA provider (what CuPy has no MATLAB-exact op for).

* Philox4x32-10 random streams, bit-identical to ``runtime/_philox.py``
  (one thread per counter block; Box-Muller in double for both precisions);
* MATLAB conversion to integer classes (round half away, saturate, NaN -> 0);
* MATLAB ``round`` (C ``round``: halves away from zero; CuPy rounds to even);
* MATLAB ``mod`` and ``rem`` (``accelerate_api/device_code/cuda_library``: the host's formula);
* ``cummax``/``cummin`` that skip NaN (one thread per line);
* ordered per-group sums, maxima and minima (``accumarray``, in the host's order);
* int32 positions of N-D range selections (slices, circshift, flip, repmat).

Every kernel is a grid-stride loop (any grid is correct; the tests run the
same source on the CPU). Sources are compiled through :class:`KernelCache`.
"""

from __future__ import annotations

import functools

from typing import Any

import numpy as np

from matfuse.accelerate_api.device_code.cuda_library import HELPERS as CUDA_HELPERS
from matfuse.accelerate.providers.cuda.cache import KernelCache

BLOCK = 256

# C type of each NumPy dtype the kernels are instantiated for.
C_TYPES = {
    "float64": "double", "float32": "float", "int8": "signed char", "uint8": "unsigned char",
    "int16": "short", "uint16": "unsigned short", "int32": "int", "uint32": "unsigned int",
    "int64": "long long", "uint64": "unsigned long long", "bool": "bool",
}

RANDOM_SOURCE = (CUDA_HELPERS["philox"] + CUDA_HELPERS["u01_f64"] + CUDA_HELPERS["u01_f32"] + r"""
// Double: 2 values per block. Element 2b takes words (x, y), 2b+1 words (z, w).
extern "C" __global__ void mf_random_f64(double* __restrict__ out, const unsigned long long n,
    const unsigned int blocks, const unsigned int k0, const unsigned int k1,
    const unsigned int c_lo, const unsigned int c_hi, const int normal) {
  for (unsigned int b = blockIdx.x * blockDim.x + threadIdx.x; b < blocks; b += blockDim.x * gridDim.x) {
    const unsigned int lo = c_lo + b;
    const unsigned int hi = c_hi + (lo < c_lo ? 1u : 0u);
    const mf_u4 w = mf_philox(lo, hi, k0, k1);
    double z0 = mf_u01_f64(w.x, w.y), z1 = mf_u01_f64(w.z, w.w);
    if (normal) {
      const double r = sqrt(-2.0 * log(z0));
      const double theta = 6.283185307179586 * z1;
      z0 = r * cos(theta);
      z1 = r * sin(theta);
    }
    const unsigned long long i = 2ull * b;
    out[i] = z0;
    if (i + 1ull < n) out[i + 1ull] = z1;
  }
}

// Single: 4 values per block, one per word; normals pair words (0,1) and (2,3).
extern "C" __global__ void mf_random_f32(float* __restrict__ out, const unsigned long long n,
    const unsigned int blocks, const unsigned int k0, const unsigned int k1,
    const unsigned int c_lo, const unsigned int c_hi, const int normal) {
  for (unsigned int b = blockIdx.x * blockDim.x + threadIdx.x; b < blocks; b += blockDim.x * gridDim.x) {
    const unsigned int lo = c_lo + b;
    const unsigned int hi = c_hi + (lo < c_lo ? 1u : 0u);
    const mf_u4 w = mf_philox(lo, hi, k0, k1);
    float z[4] = {mf_u01_f32(w.x), mf_u01_f32(w.y), mf_u01_f32(w.z), mf_u01_f32(w.w)};
    if (normal) {
      for (int p = 0; p < 4; p += 2) {
        const double r = sqrt(-2.0 * log((double)z[p]));
        const double theta = 6.283185307179586 * (double)z[p + 1];
        z[p] = (float)(r * cos(theta));
        z[p + 1] = (float)(r * sin(theta));
      }
    }
    const unsigned long long i = 4ull * b;
    for (int j = 0; j < 4; ++j) {
      if (i + (unsigned long long)j < n) out[i + j] = z[j];
    }
  }
}
""")


@functools.lru_cache(maxsize=None)
def _to_integer_source(src: str, dst: str) -> str:
    info = np.iinfo(dst)
    ct = C_TYPES[dst]
    max_lit = f"{info.max}ULL" if info.max > 2**62 else f"{info.max}LL"
    min_lit = "(-9223372036854775807LL - 1LL)" if info.min < -(2**62) else f"{info.min}LL"
    return f"""
extern "C" __global__ void mf_to_integer(const {C_TYPES[src]}* __restrict__ x, {ct}* __restrict__ y,
    const unsigned long long n) {{
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)blockDim.x * gridDim.x) {{
    const double r = round((double)x[i]);
    if (r != r) y[i] = ({ct})0;
    else if (r >= {float(info.max)!r}) y[i] = ({ct}){max_lit};
    else if (r <= {float(info.min)!r}) y[i] = ({ct}){min_lit};
    else y[i] = ({ct})r;
  }}
}}
"""


@functools.lru_cache(maxsize=None)
def _unary_source(ctype: str, body: str) -> str:
    return f"""
extern "C" __global__ void mf_unary(const {ctype}* __restrict__ x, {ctype}* __restrict__ y,
    const unsigned long long n) {{
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)blockDim.x * gridDim.x) {{
    const {ctype} v = x[i];
    y[i] = {body};
  }}
}}
"""


@functools.lru_cache(maxsize=None)
def _remainder_source(ctype: str, op: str) -> str:
    t = "f64" if ctype == "double" else "f32"
    return CUDA_HELPERS[f"{op}_{t}"] + f"""
extern "C" __global__ void mf_{op}(const {ctype}* __restrict__ x, const {ctype}* __restrict__ y,
    {ctype}* __restrict__ out, const unsigned long long n) {{
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)blockDim.x * gridDim.x) {{
    out[i] = mf_{op}_{t}(x[i], y[i]);
  }}
}}
"""


@functools.lru_cache(maxsize=None)
def _cum_extreme_source(ctype: str, op: str) -> str:
    cmp = ">" if op == "cummax" else "<"
    return f"""
// Lines of length len along one dim: element (p, l, q) at p + pre * (l + len * q).
extern "C" __global__ void mf_cum_extreme(const {ctype}* __restrict__ x, {ctype}* __restrict__ y,
    const unsigned long long pre, const unsigned long long len, const unsigned long long lines,
    const int reverse) {{
  for (unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; t < lines;
       t += (unsigned long long)blockDim.x * gridDim.x) {{
    const unsigned long long base = (t % pre) + pre * len * (t / pre);
    {ctype} acc = x[base + pre * (reverse ? len - 1ull : 0ull)];
    for (unsigned long long k = 0; k < len; ++k) {{
      const unsigned long long at = base + pre * (reverse ? len - 1ull - k : k);
      const {ctype} v = x[at];
      // NaN is skipped: a NaN accumulator takes the next value (fmax/fmin rule).
      if (v {cmp} acc || acc != acc) acc = v;
      y[at] = acc;
    }}
  }}
}}
"""


@functools.lru_cache(maxsize=None)
def _ordered_source(op: str) -> str:
    """Group g folds v[order[k]] for k in [start[g], start[g+1]) in that
    order: the host's order of accumulation (np.add.at), so sums agree bit
    for bit; max/min skip NaN (fmax/fmin) and start from the group's first."""
    step = {"sum": "s += x;", "max": "if (x > s || s != s) s = x;",
            "min": "if (x < s || s != s) s = x;"}[op]
    init = "0.0" if op == "sum" else "v[order[start[g]]]"
    return f"""
extern "C" __global__ void mf_ordered_{op}(const double* __restrict__ v,
    const long long* __restrict__ order, const long long* __restrict__ start,
    double* __restrict__ out, const unsigned long long groups, const double empty) {{
  for (unsigned long long g = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; g < groups;
       g += (unsigned long long)blockDim.x * gridDim.x) {{
    if (start[g] == start[g + 1ull]) {{ out[g] = empty; continue; }}
    double s = {init};
    for (long long k = start[g]; k < start[g + 1ull]; ++k) {{ const double x = v[order[k]]; {step} }}
    out[g] = s;
  }}
}}
"""


@functools.lru_cache(maxsize=None)
def _range_positions_source(rank: int) -> str:
    """Positions of a rank-``rank`` range selection: per dimension d the
    arguments count, first, step, modulus, scale (see the provider
    protocol's ``range_positions``)."""
    params = "".join(f", const long long c{d}, const long long f{d}, const long long s{d}, "
                     f"const long long m{d}, const long long k{d}" for d in range(rank))
    body = "".join(f"""
    {{ const long long j = rem % c{d}; rem /= c{d};
      long long v = f{d} + j * s{d};
      if (m{d} > 0) {{ v = (((v % m{d}) + m{d}) % m{d}) * k{d}; }}
      pos += v; }}""" for d in range(rank))
    return f"""
extern "C" __global__ void mf_range_positions(int* __restrict__ out, const unsigned long long n,
    const long long base{params}) {{
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)blockDim.x * gridDim.x) {{
    long long rem = (long long)i;
    long long pos = base;{body}
    out[i] = (int)pos;
  }}
}}
"""


#: most bins counted in shared memory (8 KiB per block)
HISTOGRAM_LOCAL_BINS = 2048


@functools.lru_cache(maxsize=None)
def _histogram_source(ctype: str) -> str:
    """Binary search of each element in the float64 edges; counts go to a
    per-block shared histogram, flushed once per block (few global atomics
    on hot bins). NaN finds no bin: every ``edge <= NaN`` is false."""
    return f"""
extern "C" __global__ void mf_histogram(const {ctype}* __restrict__ x,
    const double* __restrict__ edges, unsigned int* __restrict__ bins,
    const unsigned long long n, const unsigned int ne) {{
  __shared__ unsigned int local[{HISTOGRAM_LOCAL_BINS}];
  const unsigned int nb = ne - 1u;
  for (unsigned int k = threadIdx.x; k < nb; k += blockDim.x) local[k] = 0u;
  __syncthreads();
  const double last = edges[ne - 1u];
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)blockDim.x * gridDim.x) {{
    const double v = (double)x[i];
    unsigned int lo = 0u, hi = ne;
    while (lo < hi) {{
      const unsigned int mid = (lo + hi) >> 1;
      if (edges[mid] <= v) lo = mid + 1u; else hi = mid;
    }}
    const unsigned int b = (v == last) ? nb : lo;   // the last bin is closed
    if (b >= 1u && b <= nb) atomicAdd(&local[b - 1u], 1u);
  }}
  __syncthreads();
  for (unsigned int k = threadIdx.x; k < nb; k += blockDim.x) {{
    const unsigned int c = local[k];
    if (c) atomicAdd(&bins[k], c);
  }}
}}
"""


class CudaKernels:
    """Launchers of the provider's raw kernels on CuPy arrays."""

    def __init__(self, cupy: Any, cache: KernelCache, max_blocks: int):
        self.cp = cupy
        self.cache = cache
        self.max_blocks = max(1, int(max_blocks))

    def grid(self, work_items: int) -> tuple[int]:
        return (max(1, min(-(-int(work_items) // BLOCK), self.max_blocks)),)

    def launch(self, source: str, entry: str, work_items: int, args: tuple[Any, ...]) -> None:
        if work_items <= 0:
            return
        fn = self.cache.function(source, entry)
        fn(self.grid(work_items), (BLOCK,), args)

    # ------------------------------------------------------------ random
    def random(self, normal: bool, n: int, dtype: str, key: tuple[int, int], counter: int) -> Any:
        """``n`` values of the Philox stream (``runtime._philox`` layout), 1-D."""
        single = dtype in ("float32", "single")
        out = self.cp.empty(n, dtype=np.float32 if single else np.float64)
        per = 4 if single else 2
        blocks = -(-n // per)
        if blocks >= 2**32:
            raise ValueError("random request too large for one Philox launch")
        counter = int(counter) & 0xFFFFFFFFFFFFFFFF
        args = (out, np.uint64(n), np.uint32(blocks), np.uint32(int(key[0]) & 0xFFFFFFFF),
                np.uint32(int(key[1]) & 0xFFFFFFFF), np.uint32(counter & 0xFFFFFFFF),
                np.uint32(counter >> 32), np.int32(1 if normal else 0))
        self.launch(RANDOM_SOURCE, "mf_random_f32" if single else "mf_random_f64", blocks, args)
        return out

    # ------------------------------------------------------------ conversions
    def to_integer(self, x: Any, dtype: str) -> Any:
        """MATLAB conversion of real ``x`` (any real/bool dtype) to integer ``dtype``."""
        src = x.dtype.name
        flat = self.cp.ascontiguousarray(x.reshape(-1, order="F") if x.ndim else x.reshape(1))
        out = self.cp.empty(flat.size, dtype=dtype)
        self.launch(_to_integer_source(src, dtype), "mf_to_integer", flat.size,
                    (flat, out, np.uint64(flat.size)))
        return out.reshape(x.shape, order="F")

    def round_half_away(self, x: Any) -> Any:
        """MATLAB ``round`` of a real float array (same dtype and shape)."""
        ctype = C_TYPES[x.dtype.name]
        flat = self.cp.ascontiguousarray(x.reshape(-1, order="F"))
        out = self.cp.empty_like(flat)
        self.launch(_unary_source(ctype, "round(v)"), "mf_unary", flat.size,
                    (flat, out, np.uint64(flat.size)))
        return out.reshape(x.shape, order="F")

    def mod(self, x: Any, y: Any, op: str = "mod") -> Any:
        """MATLAB ``mod`` (or ``rem`` with ``op="rem"``) of two same-dtype
        real float arrays (broadcast first)."""
        x, y = self.cp.broadcast_arrays(x, y)
        shape = x.shape
        fx = self.cp.ascontiguousarray(x.reshape(-1, order="F") if x.ndim else x.reshape(1))
        fy = self.cp.ascontiguousarray(y.reshape(-1, order="F") if y.ndim else y.reshape(1))
        out = self.cp.empty_like(fx)
        self.launch(_remainder_source(C_TYPES[fx.dtype.name], op), f"mf_{op}", fx.size,
                    (fx, fy, out, np.uint64(fx.size)))
        return out.reshape(shape, order="F")

    def range_positions(self, axes: Any, base: int, shape: tuple[int, ...]) -> Any:
        """int32 positions of a range selection (``_range_positions_source``),
        an array of ``shape`` in column-major order."""
        n = 1
        for c in shape:
            n *= int(c)
        out = self.cp.empty(n, dtype=np.int32)
        args: list[Any] = [out, np.uint64(n), np.int64(base)]
        for (first, step, modulus, scale), count in zip(axes, shape):
            args += [np.int64(count), np.int64(first), np.int64(step), np.int64(modulus),
                     np.int64(scale)]
        self.launch(_range_positions_source(len(shape)), "mf_range_positions", n, tuple(args))
        return out.reshape(tuple(shape), order="F")

    def histogram(self, x: Any, edges: Any) -> Any:
        """u32 counts of the 1-D float ``x`` in the bins of the 1-D float64
        ``edges`` (at most ``HISTOGRAM_LOCAL_BINS`` bins)."""
        ne = int(edges.size)
        bins = self.cp.zeros(ne - 1, dtype=np.uint32)
        self.launch(_histogram_source(C_TYPES[x.dtype.name]), "mf_histogram", int(x.size),
                    (x, edges, bins, np.uint64(x.size), np.uint32(ne)))
        return bins

    def ordered_reduce(self, op: str, index: Any, values: Any, groups: int, empty: float) -> Any:
        """Per-group ``sum``/``max``/``min`` of float64 ``values`` by 0-based
        int64 ``index`` (``accumarray``): each group folded in the order its
        elements appear, so results equal the host's; groups without
        elements get ``empty``. No atomics (CuPy's ``maximum.at`` rounds
        doubles to single)."""
        cp = self.cp
        order = cp.argsort(index).astype(np.int64)        # stable
        counts = cp.bincount(index, minlength=groups)
        start = cp.zeros(groups + 1, dtype=np.int64)
        cp.cumsum(counts, out=start[1:])
        out = cp.empty(groups, dtype=np.float64)
        self.launch(_ordered_source(op), f"mf_ordered_{op}", groups,
                    (cp.ascontiguousarray(values), order, start, out, np.uint64(groups),
                     np.float64(empty)))
        return out

    def cum_extreme(self, op: str, x: Any, dim: int, reverse: bool) -> Any:
        """``cummax``/``cummin`` of an F-ordered array along 0-based ``dim``."""
        shape = tuple(x.shape) + (1,) * (dim + 1 - x.ndim)
        pre = int(np.prod(shape[:dim], dtype=np.int64))
        length = shape[dim]
        total = int(np.prod(shape, dtype=np.int64))
        lines = total // length if length else 0
        flat = self.cp.ascontiguousarray(x.reshape(-1, order="F"))
        out = self.cp.empty_like(flat)
        self.launch(_cum_extreme_source(C_TYPES[flat.dtype.name], op), "mf_cum_extreme", lines,
                    (flat, out, np.uint64(max(pre, 1)), np.uint64(length), np.uint64(lines),
                     np.int32(1 if reverse else 0)))
        return out.reshape(x.shape, order="F")
