"""Exact uniform division and partial-pass block fold: GPU check (run by the
lead; < 60 s on an H100).

    PYTHONPATH=src python benchmarks/cuda/division_check.py [--reps 20] [--json PATH]
    PYTHONPATH=src python benchmarks/cuda/division_check.py --emit DIR   # sources only, no GPU

1. Division (``fusion/cuda_division.py``), bit-exact:
   * single: every one of the 2^32 dividend bit patterns for each divisor,
     against the GPU's IEEE ``a / d`` (div.rn; counted in the kernel);
   * double: 1e8 pseudo-random dividends per divisor (all exponents, and
     quotient-sized ones), against ``a / d`` on the GPU;
   * both: 4e6 random dividends per divisor and the constructed
     midpoint cases, downloaded and compared with NumPy bit for bit.
2. The elementwise benchmark's reduction (``sum`` of the 1e8-element chain,
   and of a 4e6-element one): partial and final pass times (CUDA events,
   median) for the renderer with/without the exact uniform division and
   with/without the block fold ("before" is the renderer as it was), the sums
   they give against a float64 host sum, and the whole executor path.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from matfuse.accelerate.fusion.renderers import renderer_for  # noqa: E402
from matfuse.accelerate.fusion import graph as g  # noqa: E402
from matfuse.accelerate.fusion import cuda_partial, render_cuda  # noqa: E402
from matfuse.accelerate.fusion.cuda_division import division_source  # noqa: E402
from matfuse.accelerate.fusion.executor import chunk_count  # noqa: E402
from matfuse.accelerate.fusion.kernel import KernelPlan  # noqa: E402

DIVISORS = [10.0, 4.0, 3.0, 7.0, 0.1, 1 / 3, 1e-30, 3e38, 1e-40, float("inf"), float("-inf"),
            float("nan"), 0.0, -0.0, 2.0 ** -126, 2.0 ** 127, -10.0, 0.7, 1e30, 2.0 ** 126]
DIVISORS_F64 = [10.0, 4.0, 3.0, 7.0, 0.1, 1 / 3, 1e-30, 3e38, 1e-310, float("inf"), float("-inf"),
                float("nan"), 0.0, -0.0, 2.0 ** -1022, 2.0 ** 1023, -10.0, 0.7, 1e300, 1e-300]

CHECK_SOURCE = division_source({"f32", "f64"}) + r"""
__device__ __forceinline__ unsigned long long mf_mix64(unsigned long long z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
// stats[0]: mismatches, stats[1]: elements on the fast path; first: lowest bad index
extern "C" __global__ void mf_check_f32(const float d, const unsigned long long count,
                                        unsigned long long* stats, unsigned long long* first) {
  const mf_divisor_f32 s = mf_div_setup_f32(d);
  unsigned long long bad = 0ull, fast = 0ull;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < count;
       i += (unsigned long long)blockDim.x * gridDim.x) {
    const float a = __uint_as_float((unsigned int)i);
    const float got = mf_div_f32(a, s);
    const float want = a / d;
    const double q = (double)a * s.r;   // fast: the quotient is not in the subnormal range
    fast += (s.p2 || !(fabs(q) < __longlong_as_double(0x3810000000000000LL) && q != 0.0)) ? 1ull : 0ull;
    if (__float_as_uint(got) != __float_as_uint(want) && !(got != got && want != want)) {
      ++bad;
      atomicMin(first, i);
    }
  }
  atomicAdd(&stats[0], bad);
  atomicAdd(&stats[1], fast);
}
__device__ __forceinline__ double mf_check_dividend(unsigned long long seed, unsigned long long i) {
  unsigned long long bits = mf_mix64(seed + i);
  if (i & 1ull) {  // quotient-sized: |a| in [2^-63, 2^65)
    bits = (bits & 0x800FFFFFFFFFFFFFull) | ((960ull + ((bits >> 52) & 127ull)) << 52);
  }
  return __longlong_as_double((long long)bits);
}
extern "C" __global__ void mf_check_f64(const double d, const unsigned long long count,
                                        const unsigned long long seed,
                                        unsigned long long* stats, unsigned long long* first) {
  const mf_divisor_f64 s = mf_div_setup_f64(d);
  unsigned long long bad = 0ull, fast = 0ull;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < count;
       i += (unsigned long long)blockDim.x * gridDim.x) {
    const double a = mf_check_dividend(seed, i);
    const double got = mf_div_f64(a, s);
    const double want = a / d;
    const double m = fabs(a);
    fast += (m >= s.lo && m <= s.hi) ? 1ull : 0ull;
    if (__double_as_longlong(got) != __double_as_longlong(want) && !(got != got && want != want)) {
      ++bad;
      atomicMin(first, i);
    }
  }
  atomicAdd(&stats[0], bad);
  atomicAdd(&stats[1], fast);
}
extern "C" __global__ void mf_divide_f32(const float* a, float* out, const unsigned int n, const float d) {
  const mf_divisor_f32 s = mf_div_setup_f32(d);
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = mf_div_f32(a[i], s);
}
extern "C" __global__ void mf_divide_f64(const double* a, double* out, const unsigned int n, const double d) {
  const mf_divisor_f64 s = mf_div_setup_f64(d);
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = mf_div_f64(a[i], s);
}
"""

VARIANTS = {  # name: (exact uniform division, block fold)
    "before": (False, False),
    "division": (True, False),
    "fold": (False, True),
    "after": (True, True),
}


@contextlib.contextmanager
def renderer_variant(division: bool, fold: bool):
    """The CUDA renderer with the new division and/or fold switched off."""
    saved = (render_cuda._Emitter.uniform_division, cuda_partial.block_folds)
    if not division:
        render_cuda._Emitter.uniform_division = lambda self, node, idx, space: None
    if not fold:
        cuda_partial.block_folds = lambda a_ext, chunks: False
    try:
        yield render_cuda.CudaRenderer()
    finally:
        render_cuda._Emitter.uniform_division, cuda_partial.block_folds = saved


def reduction_kernels(n: int) -> dict:
    """{variant: (partial kernel, final kernel, partials per output)} of sum(chain)."""
    from tests.accelerate.fusion.test_render_wgsl import elementwise_chain

    out = {}
    for name, (division, fold) in VARIANTS.items():
        with renderer_variant(division, fold) as renderer:
            y2 = elementwise_chain(n)
            s = g.reduce_node("sum", y2, None)
            chunks = chunk_count(s)
            partial = renderer.render(KernelPlan("partial", y2.shape, [], reduce_node=s, chunks=chunks))
            per_output = renderer.partials_per_output(1, chunks)
            final = renderer.render(KernelPlan("elementwise", s.shape, [s], partial_of={s.uid: per_output}))
        out[name] = (partial, final, per_output)
    return out


class _Module:
    """Source compiled as the CUDA provider compiles its kernels (NVRTC with
    our options only). ``cupy.RawModule`` appends ``-ftz=true`` (CuPy issue
    #9576): subnormals would be flushed and the NumPy comparison fail."""

    def __init__(self, cp, source: str):
        from matfuse.accelerate.providers.cuda.cache import KernelCache

        self._cache = KernelCache(cp, "")
        self._source = source

    def get_function(self, name: str):
        return self._cache.function(self._source, name)


def time_events(cp, fn, reps: int) -> float:
    """Median milliseconds of ``fn`` (CUDA events)."""
    fn()
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(reps):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return float(np.median(times))


def check_division(cp, scale: float = 1.0) -> dict:
    """Mismatch counts of the uniform division (``scale`` < 1: fewer values, a smoke test)."""
    from tests.accelerate.fusion.test_cuda_division import midpoint_dividends

    mod = _Module(cp, CHECK_SOURCE)
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    grid = (sms * 16,)
    report: dict = {"f32_exhaustive": {}, "f64_random": {}, "numpy": {}}
    bad_total = 0
    start = time.perf_counter()
    count32 = int((1 << 32) * scale)
    for d in DIVISORS:
        stats = cp.zeros(2, dtype=cp.uint64)
        first = cp.full(1, np.iinfo(np.uint64).max, dtype=cp.uint64)
        mod.get_function("mf_check_f32")(grid, (256,), (np.float32(d), np.uint64(count32), stats, first))
        bad, fast = (int(v) for v in stats.get())
        bad_total += bad
        entry = {"bad": bad, "fast_fraction": round(fast / count32, 4)}
        if bad:
            bits = np.array([int(first.get()[0])], dtype=np.uint32)
            entry["first_bad_dividend"] = float(bits.view(np.float32)[0])
        report["f32_exhaustive"][repr(d)] = entry
    cp.cuda.Device().synchronize()
    report["f32_exhaustive_s"] = round(time.perf_counter() - start, 2)
    start = time.perf_counter()
    for k, d in enumerate(DIVISORS_F64):
        stats = cp.zeros(2, dtype=cp.uint64)
        first = cp.full(1, np.iinfo(np.uint64).max, dtype=cp.uint64)
        count = int(100_000_000 * scale)
        mod.get_function("mf_check_f64")(grid, (256,), (np.float64(d), np.uint64(count), np.uint64(k << 40),
                                                        stats, first))
        bad, fast = (int(v) for v in stats.get())
        bad_total += bad
        report["f64_random"][repr(d)] = {"bad": bad, "fast_fraction": round(fast / count, 4)}
    cp.cuda.Device().synchronize()
    report["f64_random_s"] = round(time.perf_counter() - start, 2)
    # Downloaded and compared with NumPy (random bit patterns + midpoint cases).
    rng = np.random.default_rng(1)
    for dtype, ints, divisors, p in ((np.float32, np.uint32, DIVISORS, 24), (np.float64, np.uint64, DIVISORS_F64, 53)):
        fn = mod.get_function("mf_divide_f32" if dtype == np.float32 else "mf_divide_f64")
        for d in divisors:
            a = rng.integers(0, np.iinfo(ints).max, size=int(4_000_000 * scale), dtype=ints,
                             endpoint=True).view(dtype)
            if np.isfinite(d) and d != 0 and abs(d) > 1e-300 and abs(dtype(d)) > 0 and np.isfinite(dtype(d)):
                hard = np.array(midpoint_dividends(float(dtype(d)), p, max(100, int(20000 * scale)), seed=3),
                                dtype=dtype)
                a = np.concatenate([a, hard, -hard])
            a_dev = cp.asarray(a)
            out = cp.empty_like(a_dev)
            fn((sms * 16,), (256,), (a_dev, out, np.uint32(a.size), dtype(d)))
            got = out.get()
            with np.errstate(all="ignore"):
                want = a / dtype(d)
            same = (got.view(ints) == want.view(ints)) | (np.isnan(got) & np.isnan(want))
            bad = int((~same).sum())
            bad_total += bad
            report["numpy"][f"{dtype.__name__}/{d!r}"] = {"n": int(a.size), "bad": bad}
    report["bad_total"] = bad_total
    return report


def time_reduction(cp, n: int, reps: int) -> dict:
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    max_blocks = sms * 32   # the CUDA provider's grid cap
    report = {}
    for name, (partial, final, per_output) in reduction_kernels(n).items():
        pfn = _Module(cp, partial.source).get_function(partial.entry_point)
        ffn = _Module(cp, final.source).get_function(final.entry_point)
        partials = cp.empty(int(np.prod(partial.outputs[0][0])), dtype=partial.outputs[0][1])
        result = cp.empty(1, dtype=final.outputs[0][1])
        sdt = np.float64 if partial.float_type == "f64" else np.float32
        fdt = np.float64 if final.float_type == "f64" else np.float32
        p_args = (partials, *(np.uint32(h) for h in partial.header), *(sdt(s) for s in partial.scalars))
        f_args = (partials, result, *(np.uint32(h) for h in final.header), *(fdt(s) for s in final.scalars))
        p_grid = (max(1, min(-(-partial.threads // partial.workgroup_size), max_blocks)),)
        f_grid = (max(1, min(-(-final.threads // final.workgroup_size), max_blocks)),)

        def run_partial():
            pfn(p_grid, (partial.workgroup_size,), p_args)

        def run_final():
            ffn(f_grid, (final.workgroup_size,), f_args)

        t_partial = time_events(cp, run_partial, reps)
        t_final = time_events(cp, run_final, reps)
        report[name] = {"partial_ms": round(t_partial, 4), "final_ms": round(t_final, 4),
                        "partials": int(partials.size), "final_block": final.workgroup_size,
                        "sum": float(result.get()[0])}
    return report


def reference_sum(n: int) -> float:
    """sum(chain) on the host: the chain in float32 (NumPy), summed in float64."""
    total = 0.0
    step = 10_000_000
    for lo in range(0, n, step):
        idx = np.arange(lo, min(n, lo + step), dtype=np.float64)
        x = np.where(idx == n - 1, 4 * np.pi, idx * ((4 * np.pi) / (n - 1))).astype(np.float32)
        y0 = np.sin(x) * np.exp(-x / np.float32(10))
        y1 = y0 * np.cos(x / np.float32(4)) + np.float32(0.25) * y0 ** 2
        y2 = np.tanh(y1) + np.float32(0.1) * y1
        total += float(y2.astype(np.float64).sum())
    return total


def end_to_end(cp, n: int, reps: int) -> dict:
    """sum(chain) through FusionExecutor + CudaProvider (the path programs take)."""
    from matfuse.accelerate.fusion.executor import FusionExecutor
    from matfuse.accelerate.providers.cuda.provider import CudaProvider
    from tests.accelerate.fusion.test_render_wgsl import elementwise_chain

    provider = CudaProvider()
    executor = FusionExecutor(provider, renderer_for(provider))
    roots = []   # a node owns its result buffer (freed with the node)

    def run():
        roots.clear()
        roots.append(g.reduce_node("sum", elementwise_chain(n), None))
        executor.materialize(roots[0])

    run()
    value = float(np.asarray(provider.download(roots[0].handle).to_array()).reshape(-1)[0])
    ms = time_events(cp, run, reps)
    return {"sum": value, "ms_with_host": round(ms, 4), "telemetry_dispatches": provider.telemetry()["dispatches"]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--n", type=int, default=100_000_000)
    ap.add_argument("--json", default=None)
    ap.add_argument("--quick", action="store_true", help="smoke test: 1/1000 of the values")
    ap.add_argument("--emit", default=None, help="write the kernel sources to DIR and stop (no GPU)")
    args = ap.parse_args()
    if args.emit:
        out = Path(args.emit)
        out.mkdir(parents=True, exist_ok=True)
        (out / "division_check.cu").write_text(CHECK_SOURCE)
        for name, (partial, final, _) in reduction_kernels(args.n).items():
            (out / f"{name}_partial.cu").write_text(partial.source)
            (out / f"{name}_final.cu").write_text(final.source)
        print(f"wrote {len(VARIANTS) * 2 + 1} sources to {out}")
        return 0
    import cupy as cp

    t0 = time.perf_counter()
    report = {"device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode()}
    report["division"] = check_division(cp, 1e-3 if args.quick else 1.0)
    report["reduction"] = time_reduction(cp, args.n, args.reps)
    report["reduction_4e6"] = time_reduction(cp, 4_000_000, args.reps)
    report["end_to_end"] = end_to_end(cp, args.n, args.reps)
    report["reference_sum"] = reference_sum(args.n)
    report["seconds"] = round(time.perf_counter() - t0, 1)
    div = report["division"]
    print(f"device: {report['device']}")
    print(f"division: {div['bad_total']} mismatches in total "
          f"(f32 exhaustive {div['f32_exhaustive_s']} s, f64 1e8/divisor {div['f64_random_s']} s)")
    for key in ("f32_exhaustive", "f64_random"):
        for d, entry in div[key].items():
            print(f"  {key:15s} d={d:24s} bad={entry['bad']:<6d} fast={entry['fast_fraction']}"
                  + (f" first={entry['first_bad_dividend']!r}" if "first_bad_dividend" in entry else ""))
    numpy_bad = sum(e["bad"] for e in div["numpy"].values())
    print(f"  numpy cross-check: {len(div['numpy'])} (type, divisor) pairs, {numpy_bad} mismatches")
    for key, n in (("reduction_4e6", 4_000_000), ("reduction", args.n)):
        print(f"sum(chain) n={n}: partial ms / final ms / partials / final block / sum")
        for name, r in report[key].items():
            print(f"  {name:9s} {r['partial_ms']:8.4f} {r['final_ms']:8.4f} {r['partials']:8d} "
                  f"{r['final_block']:5d} {r['sum']!r}")
    ref = report["reference_sum"]
    e2e = report["end_to_end"]
    print(f"  executor  {e2e['ms_with_host']:8.4f} ms (partial+final+host) sum={e2e['sum']!r}")
    print(f"  host reference sum {ref!r}; relative errors: "
          + ", ".join(f"{k}={abs(r['sum'] - ref) / abs(ref):.2e}" for k, r in report["reduction"].items())
          + f", executor={abs(e2e['sum'] - ref) / abs(ref):.2e}")
    print(f"total {report['seconds']} s")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 0 if div["bad_total"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
