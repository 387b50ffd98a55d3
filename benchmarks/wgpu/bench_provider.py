"""Micro-benchmarks of the wgpu provider on whatever adapter is present.

Measures, each against a reference where one exists:

* elementwise bandwidth: f32 ``x .* 2`` (vec4 loads, grid-stride, 256
  threads) and f64 ``x .* 2`` (grid-stride) vs a device-to-device copy
  (wgpu ``copy_buffer_to_buffer``; torch ``copy_`` when torch is importable;
  the fraction is taken against the faster); bandwidth counts bytes read +
  written; a 1.5 s warm-up runs first (GPU clocks ramp up);
* dispatch overhead: N tiny dispatches in one submit vs one submit each;
* reduction: sum of 2^26 f32 (capped by the adapter's binding limit);
* matmul GFLOP/s (f32, and f64 where supported) vs ``torch.matmul``.

Usage::

    python benchmarks/wgpu/bench_provider.py --out results.json [--quick]

Prints a table and writes the numbers as JSON. ``--quick`` uses small sizes
(a smoke test on lavapipe). Record GPU-machine results in docs/benchmarks/.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from typing import Callable

import numpy as np

from matfuse.accelerate.providers.wgpu import WgpuProvider
from matfuse.accelerate_api import HostTensor


def _timed(fn: Callable[[], None], sync: Callable[[], None], reps: int) -> float:
    """Seconds per repetition: one warm-up, then ``reps`` runs and one sync."""
    fn()
    sync()
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    sync()
    return (time.perf_counter() - t0) / reps


def warm_up(p: WgpuProvider, n: int, seconds: float = 1.5) -> None:
    """Keep the GPU busy first: clocks ramp up over ~1 s, and the first
    measurements otherwise read 4x low (seen on the H200)."""
    x = p.fill((n, 1), 1.0, "float32")
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for _ in range(10):
            p.free(p.elem_binary("times", x, 2.0, "float32"))
        p.synchronize()
    p.free(x)


def bench_copy(p: WgpuProvider, nbytes: int, reps: int) -> float:
    src = p.fill((nbytes // 4, 1), 1.0, "float32")
    dst = p.fill((nbytes // 4, 1), 0.0, "float32")
    sb, db = p.bind(src)[0], p.bind(dst)[0]
    sec = _timed(lambda: p.batcher.copy(sb, db, nbytes), p.synchronize, reps)
    p.free(src)
    p.free(dst)
    return 2 * nbytes / sec


def bench_elementwise(p: WgpuProvider, n: int, dtype: str, reps: int) -> float:
    """Best of two rounds: the first use of freshly created large buffers is
    ~4x slower on NVIDIA (first touch), steady state reuses pooled buffers."""
    return max(_elementwise_round(p, n, dtype, reps) for _ in range(2))


def _elementwise_round(p: WgpuProvider, n: int, dtype: str, reps: int) -> float:
    x = p.fill((n, 1), 1.5, dtype)
    outs: list = []

    def step() -> None:
        outs.append(p.elem_binary("times", x, 2.0, dtype))
        if len(outs) > 2:
            p.free(outs.pop(0))

    sec = _timed(step, p.synchronize, reps)
    for h in outs + [x]:
        p.free(h)
    return 2 * n * np.dtype(dtype).itemsize / sec


def bench_dispatch(p: WgpuProvider, count: int) -> dict[str, float]:
    x = p.fill((4, 1), 1.0, "float32")
    # one buffer pair reused so only dispatch cost is measured
    def batched() -> None:
        for _ in range(count):
            p.free(p.elem_binary("plus", x, 1.0, "float32"))

    def one_each() -> None:
        for _ in range(count):
            p.free(p.elem_binary("plus", x, 1.0, "float32"))
            p.synchronize()

    b = _timed(batched, p.synchronize, 3) / count
    s = _timed(one_each, p.synchronize, 1) / count
    p.free(x)
    return {"batched_us_per_dispatch": b * 1e6, "submit_each_us_per_dispatch": s * 1e6}


def bench_reduce(p: WgpuProvider, n: int, reps: int) -> dict[str, float]:
    host = np.random.default_rng(0).random(n, dtype=np.float32)
    x = p.upload(HostTensor(host, (n, 1), "single"))
    sec = _timed(lambda: p.free(p.reduce("sum", x, None, False, "float32")), p.synchronize, reps)
    r = p.reduce("sum", x, None, False, "float32")
    got = float(p.download(r).data[0])
    p.free(r)
    p.free(x)
    want = float(host.sum(dtype=np.float64))
    return {"elements": n, "ms": sec * 1e3, "GB_per_s": 4 * n / sec / 1e9,
            "rel_err_vs_f64": abs(got - want) / abs(want)}


def bench_matmul(p: WgpuProvider, size: int, dtype: str, reps: int) -> float:
    rng = np.random.default_rng(1)
    a = p.upload(HostTensor.from_array(rng.random((size, size)).astype(dtype)))
    b = p.upload(HostTensor.from_array(rng.random((size, size)).astype(dtype)))
    sec = _timed(lambda: p.free(p.matmul(a, b)), p.synchronize, reps)
    p.free(a)
    p.free(b)
    return 2 * size ** 3 / sec / 1e9


def torch_reference(nbytes: int, size: int, reps: int) -> dict[str, float]:
    try:
        import torch
    except ImportError:
        return {}
    if not torch.cuda.is_available():
        return {}
    out: dict[str, float] = {}
    x = torch.ones(nbytes // 4, device="cuda", dtype=torch.float32)
    y = torch.empty_like(x)
    sec = _timed(lambda: y.copy_(x), torch.cuda.synchronize, reps)
    out["torch_copy_GB_per_s"] = 2 * nbytes / sec / 1e9
    for dt, name in ((torch.float32, "f32"), (torch.float64, "f64")):
        a = torch.rand(size, size, device="cuda", dtype=dt)
        sec = _timed(lambda: torch.matmul(a, a), torch.cuda.synchronize, reps)
        out[f"torch_matmul_{name}_GFLOP_per_s"] = 2 * size ** 3 / sec / 1e9
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="JSON output path")
    ap.add_argument("--quick", action="store_true", help="small sizes (CI smoke test)")
    args = ap.parse_args(argv)

    p = WgpuProvider()
    max_elems = p.ctx.max_binding_bytes // 8
    n32 = min(1 << (20 if args.quick else 28), p.ctx.max_binding_bytes // 4)
    n64 = min(1 << (19 if args.quick else 27), max_elems)
    reps = 3 if args.quick else 20
    mm = 256 if args.quick else 4096
    res: dict[str, object] = {
        "device": p.device_info(), "precision_policy": p.device_info_struct().precision_policy,
        "python": platform.python_version(), "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "quick": args.quick,
    }
    warm_up(p, n32, 0.2 if args.quick else 1.5)
    res["elementwise_f32_GB_per_s"] = bench_elementwise(p, n32, "float32", reps) / 1e9
    if p.ctx.has_f64:
        res["elementwise_f64_GB_per_s"] = bench_elementwise(p, n64, "float64", reps) / 1e9
    copy_bw = bench_copy(p, n32 * 4, reps)
    res["wgpu_copy_GB_per_s"] = copy_bw / 1e9
    res["dispatch"] = bench_dispatch(p, 50 if args.quick else 500)
    res["reduce_sum_f32"] = bench_reduce(p, min(1 << (20 if args.quick else 26),
                                                p.ctx.max_binding_bytes // 4), reps)
    res["matmul_size"] = mm
    res["matmul_f32_GFLOP_per_s"] = bench_matmul(p, mm, "float32", max(2, reps // 4))
    if p.ctx.has_f64:
        res["matmul_f64_GFLOP_per_s"] = bench_matmul(p, min(mm, 2048), "float64", max(2, reps // 4))
    # torch last: a live CUDA context next to Vulkan slowed wgpu kernels 2.5x
    torch_ref = torch_reference(n32 * 4, mm, reps)
    res.update(torch_ref)
    best_copy = max(copy_bw, torch_ref.get("torch_copy_GB_per_s", 0.0) * 1e9)
    res["best_copy_GB_per_s"] = best_copy / 1e9
    for key in ("elementwise_f32_GB_per_s", "elementwise_f64_GB_per_s"):
        if key in res:
            res[key.replace("GB_per_s", "fraction_of_best_copy")] = res[key] * 1e9 / best_copy
    res["telemetry"] = {k: v for k, v in p.telemetry().items() if not isinstance(v, dict)}

    width = max(len(k) for k in res)
    for key, value in res.items():
        if isinstance(value, dict) and key != "telemetry":
            for k2, v2 in value.items():
                print(f"{key + '.' + k2:<{width + 24}} {v2:.4g}" if isinstance(v2, float)
                      else f"{key + '.' + k2:<{width + 24}} {v2}")
        elif key != "telemetry":
            print(f"{key:<{width + 24}} {value:.4g}" if isinstance(value, float)
                  else f"{key:<{width + 24}} {value}")
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(res, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
