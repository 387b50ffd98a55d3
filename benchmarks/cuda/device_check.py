"""CUDA provider check for the GPU machine (run by the lead; < 4 minutes on an H100).

    python benchmarks/cuda/device_check.py [--skip-tests] [--log 2**28]

1. Runs the CUDA provider oracle tests and the CUDA renderer tests (pytest).
2. Measures a long fused elementwise chain over 2**28 float32 elements
   through the FusionExecutor + CudaProvider (one generated kernel: one read,
   one write per element) against a device-to-device copy of the same bytes
   (CuPy, and PyTorch when installed) measured in the same run.
3. Prints a compact report (also written as JSON to $OUT/cuda_device_check.json
   when $OUT is set).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

TEST_FILES = ["tests/accelerate/providers/test_cuda_provider.py",
              "tests/accelerate/fusion/test_render_cuda.py"]


def run_tests(timeout: int) -> dict:
    start = time.perf_counter()
    cmd = [sys.executable, "-m", "pytest", "-q", "-rfEs", "-p", "no:cacheprovider",
           "--maxfail=40", *TEST_FILES]
    try:
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        out, rc = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired as err:
        out = (err.stdout or b"").decode(errors="replace") if isinstance(err.stdout, bytes) else (err.stdout or "")
        rc = -1
    lines = out.strip().splitlines()
    summary = next((ln for ln in reversed(lines) if " passed" in ln or " failed" in ln
                    or " error" in ln or " skipped" in ln), lines[-1] if lines else "")
    failures = [ln for ln in lines if ln.startswith(("FAILED", "ERROR"))][:40]
    return {"rc": rc, "summary": summary, "failures": failures, "seconds": round(time.perf_counter() - start, 1),
            "tail": "\n".join(lines[-60:]) if rc not in (0,) else ""}


def chain(x_node, g, length: int):
    """A long memory-bound f32 chain: ``length`` ops, all fused into one kernel."""
    y = x_node
    for k in range(length):
        if k % 4 == 0:
            y = g.binary_node("mul", y, g.scalar_node(1.0001, "f32"))
        elif k % 4 == 1:
            y = g.binary_node("add", y, g.scalar_node(0.5, "f32"))
        elif k % 4 == 2:
            y = g.binary_node("max", y, g.scalar_node(-3.0, "f32"))
        else:
            y = g.binary_node("sub", y, g.scalar_node(0.25, "f32"))
    return y


def transcendental_chain(x_node, g):
    a = g.unary_node("sin", x_node)
    b = g.unary_node("exp", g.binary_node("mul", x_node, g.scalar_node(-0.5, "f32")))
    return g.binary_node("add", g.binary_node("mul", a, b), g.unary_node("tanh", x_node))


def time_events(cp, fn, repeats: int) -> float:
    """Median seconds of ``fn`` measured with CUDA events."""
    fn()
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(repeats):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) / 1e3)
    return float(np.median(times))


def bandwidth(log2n: int, repeats: int) -> dict:
    import cupy as cp

    from matfuse.accelerate.fusion import graph as g
    from matfuse.accelerate.fusion.executor import STATS, FusionExecutor
    from matfuse.accelerate.fusion.kernel import KernelPlan
    from matfuse.accelerate.providers.cuda.provider import CudaProvider

    n = 1 << log2n
    p = CudaProvider()
    report: dict = {"device": p.device_info(), "n": n}
    xh = p.random_uniform((n, 1), "float32", (1, 2), 0)
    x_node = g.input_node(xh)
    bytes_moved = 2 * n * 4                       # one f32 read + one f32 write

    # Device-to-device copies of the same bytes, same run.
    src = p._flat(xh)
    dst = cp.empty_like(src)
    t_copy = time_events(cp, lambda: dst.__setitem__(Ellipsis, src), repeats)
    report["cupy_copy_TBps"] = round(bytes_moved / t_copy / 1e12, 3)
    t_memcpy = time_events(cp, lambda: cp.cuda.runtime.memcpyAsync(
        dst.data.ptr, src.data.ptr, src.nbytes, cp.cuda.runtime.memcpyDeviceToDevice,
        cp.cuda.get_current_stream().ptr), repeats)
    report["cuda_memcpy_TBps"] = round(bytes_moved / t_memcpy / 1e12, 3)
    del dst
    try:
        import torch

        tx = torch.empty(n, dtype=torch.float32, device="cuda")
        ty = torch.empty_like(tx)
        t_torch = time_events(cp, lambda: ty.copy_(tx), repeats)
        report["torch_copy_TBps"] = round(bytes_moved / t_torch / 1e12, 3)
        del tx, ty
        torch.cuda.empty_cache()
    except ImportError:
        report["torch_copy_TBps"] = None

    for name, build in (("chain32", lambda: chain(x_node, g, 32)),
                        ("transcendental", lambda: transcendental_chain(x_node, g))):
        root = build()
        kernel = renderer_for(p).render(KernelPlan("elementwise", root.shape, [root]))
        outs: list = []

        def launch() -> None:
            while outs:
                p.free(outs.pop())
            outs.extend(p.fused_elementwise(kernel, [xh], kernel.scalars, kernel.outputs))

        t_kernel = time_events(cp, launch, repeats)
        while outs:
            p.free(outs.pop())
        # Whole path: build graph, render, launch, through the executor.
        STATS.kernels = 0
        executor = FusionExecutor(p, renderer_for(p))
        handles = []

        def materialize() -> None:
            handles.append(executor.materialize(build()))

        t_exec = time_events(cp, materialize, max(3, repeats // 2))
        kernels_per_run = STATS.kernels / (max(3, repeats // 2) + 1)
        handles.clear()
        report[name] = {
            "nodes": sum(1 for _ in g.walk(root)), "kernel_ms": round(t_kernel * 1e3, 3),
            "kernel_TBps": round(bytes_moved / t_kernel / 1e12, 3),
            "executor_ms": round(t_exec * 1e3, 3),
            "executor_TBps": round(bytes_moved / t_exec / 1e12, 3),
            "kernels_per_materialize": kernels_per_run,
        }
    # Unroll factor of the generated grid-stride loop (loads in flight per thread).
    from matfuse.accelerate.fusion.render_cuda import CudaRenderer

    root = chain(x_node, g, 32)
    for unroll in (1, 2, 4, 8):
        kernel = CudaRenderer(unroll=unroll).render(KernelPlan("elementwise", root.shape, [root]))
        outs = []

        def launch_unrolled() -> None:
            while outs:
                p.free(outs.pop())
            outs.extend(p.fused_elementwise(kernel, [xh], kernel.scalars, kernel.outputs))

        t = time_events(cp, launch_unrolled, repeats)
        while outs:
            p.free(outs.pop())
        report[f"chain32_unroll{unroll}_TBps"] = round(bytes_moved / t / 1e12, 3)
    copies = [v for v in (report["cupy_copy_TBps"], report["cuda_memcpy_TBps"],
                          report["torch_copy_TBps"]) if v]
    best_copy = max(copies) if copies else None
    report["chain32_vs_copy"] = (round(report["chain32"]["kernel_TBps"] / best_copy, 3)
                                 if best_copy else None)
    # Correctness of the measured kernel on a slice.
    check_root = chain(x_node, g, 32)
    yh = FusionExecutor(p, renderer_for(p)).materialize(check_root)
    got = cp.asnumpy(p._flat(yh)[:4096])
    y = cp.asnumpy(src[:4096]).astype(np.float32)
    for k in range(32):
        y = [lambda v: v * np.float32(1.0001), lambda v: v + np.float32(0.5),
             lambda v: np.fmax(v, np.float32(-3.0)), lambda v: v - np.float32(0.25)][k % 4](y)
    report["chain32_max_abs_err"] = float(np.max(np.abs(got - y)))
    report["kernel_cache"] = p.cache.stats
    report["telemetry_dispatches"] = p.telemetry()["dispatches"]
    return report


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skip-tests", action="store_true")
    ap.add_argument("--log", type=int, default=28, help="log2 of the element count (default 28)")
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--test-timeout", type=int, default=170)
    args = ap.parse_args()
    t0 = time.perf_counter()
    result: dict = {"date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
    if not args.skip_tests:
        result["tests"] = run_tests(args.test_timeout)
    try:
        result["bandwidth"] = bandwidth(args.log, args.repeats)
    except ImportError as err:
        result["bandwidth"] = {"error": f"cupy missing: {err}"}
    result["total_seconds"] = round(time.perf_counter() - t0, 1)

    print("=== matfuse CUDA device check ===")
    print(f"date: {result['date']}   total: {result['total_seconds']} s")
    if "tests" in result:
        t = result["tests"]
        print(f"tests: rc={t['rc']} {t['summary']} ({t['seconds']} s)")
        for line in t["failures"]:
            print("  " + line[:300])
        if t["rc"] != 0 and not t["failures"]:
            print(t["tail"])
    bw = result["bandwidth"]
    if "error" in bw:
        print(f"bandwidth: {bw['error']}")
    else:
        print(f"device: {bw['device']}  n = {bw['n']} f32")
        print(f"copy TB/s (read+write): cupy {bw['cupy_copy_TBps']}  memcpy {bw['cuda_memcpy_TBps']}"
              f"  torch {bw['torch_copy_TBps']}")
        for name in ("chain32", "transcendental"):
            r = bw[name]
            print(f"{name}: {r['nodes']} nodes  kernel {r['kernel_ms']} ms = {r['kernel_TBps']} TB/s"
                  f"  executor {r['executor_ms']} ms = {r['executor_TBps']} TB/s"
                  f"  kernels/materialize {r['kernels_per_materialize']:.2f}")
        print("chain32 kernel TB/s by unroll: " + "  ".join(
            f"{u}: {bw[f'chain32_unroll{u}_TBps']}" for u in (1, 2, 4, 8)))
        print(f"chain32 / best copy = {bw['chain32_vs_copy']}   max abs err {bw['chain32_max_abs_err']:.3g}")
        print(f"kernel cache: {bw['kernel_cache']}")
    out_dir = os.environ.get("OUT")
    if out_dir:
        Path(out_dir, "cuda_device_check.json").write_text(json.dumps(result, indent=2, default=str))
    ok = result.get("tests", {"rc": 0})["rc"] == 0 and "error" not in bw
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
