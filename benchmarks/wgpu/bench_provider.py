"""Micro-benchmarks of the wgpu provider on whatever adapter is present.

Measures, each against a reference where one exists (issue #5):

* elementwise bandwidth: f32 ``x .* 2`` (vec4 loads, grid-stride) and f64
  ``x .* 2`` (grid-stride) vs a device-to-device copy (wgpu
  ``copy_buffer_to_buffer``; torch ``copy_`` or CuPy when importable; the
  fraction is taken against the fastest); bandwidth counts bytes read +
  written; a warm-up runs first (GPU clocks ramp up over ~1 s);
* fixed costs: N tiny dispatches in one submit vs one submit each, a tiny
  dispatch + 16-byte download round trip (the map waited for on the calling
  thread and through wgpu-py's poll thread), an idle ``synchronize``;
* host transfers: upload and download GB/s of a large f32 array;
* reductions: global sum and per-column / per-row sums of a matrix (GB/s of
  input read);
* matmul GFLOP/s (f32, and f64 where supported) vs ``torch.matmul`` (cuBLAS)
  or CuPy.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/wgpu/bench_provider.py --out results.json [--quick]

Prints a table and writes the numbers as JSON. ``--quick`` uses small sizes
(a smoke test on lavapipe, well under a minute). Record GPU-machine results in
docs/benchmarks/.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from typing import Callable

import numpy as np

from matfuse.accelerate.providers.wgpu import WgpuProvider, staging
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


def _median_us(fn: Callable[[], None], reps: int) -> float:
    """Median wall time of ``fn`` in microseconds (each call is synchronous)."""
    for _ in range(5):
        fn()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6


def warm_up(p: WgpuProvider, n: int, seconds: float) -> None:
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
    return 2 * nbytes / sec / 1e9


def bench_elementwise(p: WgpuProvider, n: int, dtype: str, reps: int) -> float:
    """GB/s, best of two rounds: the first use of freshly created large
    buffers is ~4x slower on NVIDIA (first touch)."""
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
    return 2 * n * np.dtype(dtype).itemsize / sec / 1e9


def bench_fixed_costs(p: WgpuProvider, count: int, reps: int) -> dict[str, float]:
    """Microseconds of the per-dispatch, per-submit and per-read-back costs."""
    x = p.fill((4, 1), 1.0, "float32")

    def batched() -> None:
        for _ in range(count):
            p.free(p.elem_binary("plus", x, 1.0, "float32"))

    def one_each() -> None:
        for _ in range(count):
            p.free(p.elem_binary("plus", x, 1.0, "float32"))
            p.synchronize()

    def dispatch_and_read() -> None:
        h = p.elem_binary("plus", x, 1.0, "float32")
        p.read(h)
        p.free(h)

    def submit_only() -> None:
        p.free(p.elem_binary("plus", x, 1.0, "float32"))
        p.flush()

    scalar = HostTensor(np.zeros((1, 1)), (1, 1), "double")
    out = {
        "upload_8B_no_wait_us": _median_us(lambda: p.free(p.upload(scalar)), reps),
        "batched_us_per_dispatch": _timed(batched, p.synchronize, 3) / count * 1e6,
        "submit_each_us_per_dispatch": _timed(one_each, p.synchronize, 1) / count * 1e6,
        "dispatch_submit_no_wait_us": _median_us(submit_only, reps),
        "idle_synchronize_us": _median_us(p.synchronize, reps),
    }
    p.synchronize()
    saved = staging.POLL_ON_CALLER
    try:
        for poll in (True, False):
            staging.POLL_ON_CALLER = poll
            name = "caller_poll" if poll else "poll_thread"
            out[f"dispatch_and_16B_readback_us_{name}"] = _median_us(dispatch_and_read, reps)
            out[f"16B_readback_only_us_{name}"] = _median_us(lambda: p.read(x), reps)
    finally:
        staging.POLL_ON_CALLER = saved
    # the path downloads took before staging buffers: a new MAP_READ buffer,
    # its own submit and the poll thread, per call
    xbuf = p.bind(x)[0].buffer
    out["16B_readback_only_us_wgpu_read_buffer"] = _median_us(
        lambda: p.ctx.queue.read_buffer(xbuf, 0, 16), reps)
    p.free(x)
    return out


def bench_transfers(p: WgpuProvider, n: int, reps: int) -> dict[str, float]:
    """Host <-> device GB/s of an n-element f32 vector (pageable host memory)."""
    host = np.ones(n, dtype=np.float32)
    tensor = HostTensor(host, (n, 1), "single")
    up_s = _timed(lambda: p.free(p.upload(tensor)), p.synchronize, reps)
    x = p.upload(tensor)
    down_s = _timed(lambda: p.read(x), p.synchronize, reps)
    p.free(x)
    return {"upload_GB_per_s": 4 * n / up_s / 1e9, "download_GB_per_s": 4 * n / down_s / 1e9}


def bench_reductions(p: WgpuProvider, n: int, rows: int, reps: int) -> dict[str, float]:
    """Global sum, column sums and row sums of n f32 values (GB/s read)."""
    host = np.random.default_rng(0).random(n, dtype=np.float32)
    cols = n // rows
    x = p.upload(HostTensor(host, (n, 1), "single"))
    m = p.upload(HostTensor(host[:rows * cols], (rows, cols), "single"))
    out: dict[str, float] = {"elements": float(n), "matrix_rows": float(rows),
                             "matrix_cols": float(cols)}
    cases = (("sum_all", x, None), ("sum_columns", m, (0,)), ("sum_rows", m, (1,)))
    for name, h, dims in cases:
        sec = _timed(lambda: p.free(p.reduce("sum", h, dims, False, "float32")), p.synchronize,
                     reps)
        out[f"{name}_ms"] = sec * 1e3
        out[f"{name}_GB_per_s"] = 4 * int(np.prod(h.shape)) / sec / 1e9
    r = p.reduce("sum", x, None, False, "float32")
    got = float(p.download(r).data[0])
    p.free(r)
    want = float(host.sum(dtype=np.float64))
    out["sum_all_rel_err_vs_f64"] = abs(got - want) / abs(want)
    p.free(x)
    p.free(m)
    return out


def bench_matmul(p: WgpuProvider, size: int, dtype: str, reps: int) -> float:
    rng = np.random.default_rng(1)
    a = p.upload(HostTensor.from_array(rng.random((size, size)).astype(dtype)))
    b = p.upload(HostTensor.from_array(rng.random((size, size)).astype(dtype)))
    sec = _timed(lambda: p.free(p.matmul(a, b)), p.synchronize, reps)
    p.free(a)
    p.free(b)
    return 2 * size ** 3 / sec / 1e9


def reference_numbers(copy_bytes: int, nred: int, rows: int, mm: int,
                      reps: int) -> dict[str, object]:
    """The same measures through torch (cuBLAS) or else CuPy, when importable
    with a CUDA device; {} otherwise (lavapipe)."""
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and torch.cuda.is_available():
        lib, sync = torch, torch.cuda.synchronize

        def make(shape: tuple[int, ...], dtype: str) -> object:
            return torch.rand(*shape, device="cuda", dtype=getattr(torch, dtype))
    else:
        try:
            import cupy
        except ImportError:
            return {}
        lib, sync = cupy, cupy.cuda.runtime.deviceSynchronize

        def make(shape: tuple[int, ...], dtype: str) -> object:
            return cupy.random.random(shape).astype(dtype)
    out: dict[str, object] = {"library": lib.__name__ + " " + lib.__version__}
    if lib is torch:
        out["torch_matmul_allow_tf32"] = bool(torch.backends.cuda.matmul.allow_tf32)
    out["copy_GB_per_s"] = _reference_copy(make, sync, copy_bytes, reps)
    out.update(_reference_reductions(make, sync, nred, rows, reps))
    for dtype, size in (("float32", mm), ("float64", min(mm, 2048))):
        a = make((size, size), dtype)
        sec = _timed(lambda: a @ a, sync, max(2, reps // 4))
        out[f"matmul_{dtype.replace('float', 'f')}_GFLOP_per_s"] = 2 * size ** 3 / sec / 1e9
    return out


def _reference_copy(make: Callable, sync: Callable[[], None], nbytes: int, reps: int) -> float:
    x = make((nbytes // 4,), "float32")
    y = x * 0
    copy = y.copy_ if hasattr(y, "copy_") else (lambda src: y.__setitem__(Ellipsis, src))
    return 2 * nbytes / _timed(lambda: copy(x), sync, reps) / 1e9


def _reference_reductions(make: Callable, sync: Callable[[], None], n: int, rows: int,
                          reps: int) -> dict[str, float]:
    v = make((n,), "float32")
    # MATLAB's column-major rows x cols matrix is a row-major (cols, rows) array
    m = make((n // rows, rows), "float32")
    out = {}
    in_matrix = (n // rows) * rows
    for name, fn, count in (("sum_all", lambda: v.sum(), n),
                            ("sum_columns", lambda: m.sum(1), in_matrix),
                            ("sum_rows", lambda: m.sum(0), in_matrix)):
        out[f"{name}_GB_per_s"] = 4 * count / _timed(fn, sync, reps) / 1e9
    return out


def print_table(res: dict[str, object]) -> None:
    rows: list[tuple[str, str]] = []
    for key, value in res.items():
        if value == {}:
            rows.append((key, "none (no torch/CuPy with a CUDA device here)"))
            continue
        items = value.items() if isinstance(value, dict) else [("", value)]
        for k2, v2 in items:
            name = f"{key}.{k2}" if k2 else key
            rows.append((name, f"{v2:.4g}" if isinstance(v2, float) else str(v2)))
    width = max(len(r[0]) for r in rows)
    for name, text in rows:
        print(f"{name:<{width}}  {text}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="JSON output path")
    ap.add_argument("--quick", action="store_true", help="small sizes (CI smoke test)")
    args = ap.parse_args(argv)
    quick = args.quick

    p = WgpuProvider()
    n32 = min(1 << (20 if quick else 28), p.ctx.max_binding_bytes // 4)
    n64 = min(1 << (19 if quick else 27), p.ctx.max_binding_bytes // 8)
    nred = min(1 << (20 if quick else 26), p.ctx.max_binding_bytes // 4)
    reps = 3 if quick else 20
    mm = 256 if quick else 4096
    res: dict[str, object] = {
        "device": p.device_info(), "precision_policy": p.device_info_struct().precision_policy,
        "python": platform.python_version(), "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "quick": quick,
    }
    warm_up(p, n32, 0.2 if quick else 1.5)
    res["elementwise_f32_GB_per_s"] = bench_elementwise(p, n32, "float32", reps)
    if p.ctx.has_f64:
        res["elementwise_f64_GB_per_s"] = bench_elementwise(p, n64, "float64", reps)
    res["wgpu_copy_GB_per_s"] = bench_copy(p, n32 * 4, reps)
    res["fixed_costs"] = bench_fixed_costs(p, 50 if quick else 500, 30 if quick else 200)
    res["transfers"] = bench_transfers(p, 1 << (18 if quick else 24), reps)
    res["reductions_f32"] = bench_reductions(p, nred, 1024 if quick else 4096, reps)
    res["matmul_size"] = mm
    res["matmul_f32_GFLOP_per_s"] = bench_matmul(p, mm, "float32", max(2, reps // 4))
    if p.ctx.has_f64:
        res["matmul_f64_GFLOP_per_s"] = bench_matmul(p, min(mm, 2048), "float64",
                                                     max(2, reps // 4))
    tel = p.telemetry()
    res["telemetry"] = {k: v for k, v in tel.items() if not isinstance(v, dict)}
    # references last: a live CUDA context next to Vulkan slowed wgpu kernels 2.5x
    ref = reference_numbers(n32 * 4, nred, 4096 if not quick else 1024, mm, reps)
    res["reference"] = ref
    best_copy = max(res["wgpu_copy_GB_per_s"], ref.get("copy_GB_per_s", 0.0))
    ratios = {"best_copy_GB_per_s": best_copy}
    for key in ("elementwise_f32_GB_per_s", "elementwise_f64_GB_per_s"):
        if key in res:
            ratios[key.replace("GB_per_s", "fraction_of_best_copy")] = res[key] / best_copy
    for key in ("sum_all", "sum_columns", "sum_rows"):
        if f"{key}_GB_per_s" in ref:
            ratios[f"{key}_vs_reference"] = (res["reductions_f32"][f"{key}_GB_per_s"]
                                             / ref[f"{key}_GB_per_s"])
    for key in ("matmul_f32", "matmul_f64"):
        if f"{key}_GFLOP_per_s" in ref and f"{key}_GFLOP_per_s" in res:
            ratios[f"{key}_vs_reference"] = res[f"{key}_GFLOP_per_s"] / ref[f"{key}_GFLOP_per_s"]
    res["ratios"] = ratios
    print_table(res)
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(res, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
