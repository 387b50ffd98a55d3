"""Plain scripts (``gpu = 0``, auto-offload) against their explicit-gpuArray
versions (``gpu = 1``) on the same provider, in one process: warm median
time per run, fused kernels, dispatches, uploads and downloads per run, and
the checksums. The goal (issue #7): plain within 20% of gpuArray, with the
same kernels and no extra transfers.

    PYTHONPATH=src python benchmarks/planner/plain_vs_gpuarray.py [--sizes gpu|cpu|tiny]
        [--iters 5] [--warmup 2] [--only montecarlo,elementwise,imagenorm]

The provider is the one the environment picks (``MATFUSE_PROVIDER``; auto
mode offloads only on a real GPU: set ``MATFUSE_AUTO_OFFLOAD=force`` and low
``MATFUSE_THRESHOLD_*`` to try it on lavapipe). ``--sizes gpu`` uses the
first GPU size of each workload (benchmarks/workloads.py).
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

WORKLOADS = ("montecarlo", "elementwise", "imagenorm")


def measure(name: str, params: dict[str, float], gpu: int, iters: int,
            warmup: int) -> dict[str, Any]:
    from matfuse.accelerate.facade import ensure_provider
    from matfuse.accelerate.fusion.executor import STATS
    from matfuse.vm.session import Session

    from benchmarks.workloads import workload_by_name

    script = str(workload_by_name(name).script)
    p = ensure_provider()
    out = io.StringIO()
    session = Session(stdout=out, stderr=io.StringIO())

    def once() -> None:
        out.seek(0)
        out.truncate()
        session.eval("clear")
        for key, value in params.items():
            session.set(key, float(value))
        session.set("gpu", float(gpu))
        session.run_file(script)
        p.synchronize()

    for _ in range(warmup):
        once()
    p.reset_telemetry()
    kernels = STATS.kernels
    times = []
    for _ in range(iters):
        start = time.perf_counter()
        once()
        times.append(time.perf_counter() - start)
    tel = p.telemetry()
    per = {k: tel.get(k, 0) / iters for k in ("dispatches", "uploads", "downloads",
                                              "upload_bytes", "download_bytes")}
    per["kernels"] = (STATS.kernels - kernels) / iters
    return {"median_s": statistics.median(times), "output": out.getvalue().strip(), **per}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="gpu")
    parser.add_argument("--iters", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--only", default=",".join(WORKLOADS))
    args = parser.parse_args(argv)

    from matfuse.accelerate.facade import acceleration_state, ensure_provider
    from matfuse.accelerate.planner import offload

    from benchmarks.workloads import workload_by_name

    ensure_provider()
    state = acceleration_state()
    print(f"provider: {state.description if state else ensure_provider().name}")
    worst = 0.0
    for name in args.only.split(","):
        params = workload_by_name(name).sizes[args.sizes][0]
        explicit = measure(name, params, 1, args.iters, args.warmup)
        plain = measure(name, params, 0, args.iters, args.warmup)
        ratio = plain["median_s"] / explicit["median_s"]
        worst = max(worst, ratio)
        print(f"\n{name} {params}  planner: {offload.STATE.mode} ({offload.STATE.note})")
        print(f"  {'':8} {'median ms':>10} {'kernels':>8} {'dispatch':>8} {'uploads':>8} "
              f"{'up bytes':>10} {'downloads':>9}  output")
        for label, r in (("gpuArray", explicit), ("plain", plain)):
            print(f"  {label:8} {r['median_s'] * 1e3:10.2f} {r['kernels']:8.1f} "
                  f"{r['dispatches']:8.1f} {r['uploads']:8.1f} {r['upload_bytes']:10.0f} "
                  f"{r['downloads']:9.1f}  {r['output']}")
        print(f"  plain / gpuArray time: {ratio:.3f}")
    print(f"\nworst plain/gpuArray ratio: {worst:.3f} (goal <= 1.20)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
