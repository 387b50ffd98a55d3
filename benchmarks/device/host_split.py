"""Where one run's host time goes: the interpreter building the lazy graph
(every statement but the final gather), the forced materialisation
(executor + kernel render + provider dispatch recording), the download's
host part, and the device phases the provider reports.

    PYTHONPATH=src MATFUSE_PROVIDER=cuda python benchmarks/device/host_split.py elementwise n=1e8 gpu=1
    PYTHONPATH=src MATFUSE_PROVIDER=wgpu python benchmarks/device/host_split.py montecarlo M=1e5 T=64 gpu=1 --runs 100

Unlike profile_overhead.py the ``gpu`` parameter is honoured (gpu=0 runs
the plain script: the auto-offload planner's path on a real GPU). Medians
over ``--runs`` timed runs after 10 warm-up runs, in microseconds.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from pathlib import Path

import numpy as np

from matfuse.accelerate import gpuarray
from matfuse.accelerate.facade import ensure_provider
from matfuse.accelerate.fusion import executor
from matfuse.vm.session import Session

ROOT = Path(__file__).resolve().parents[2]
_PHASES = ("upload", "submit", "device_wait")


def timed_method(owner: type, name: str, bucket: dict[str, float], key: str) -> None:
    """Wrap ``owner.name`` so its inclusive wall time adds to ``bucket[key]``."""
    original = getattr(owner, name)

    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            bucket[key] += time.perf_counter() - start

    setattr(owner, name, wrapper)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("workload")
    ap.add_argument("params", nargs="*", help="NAME=VALUE script variables")
    ap.add_argument("--runs", type=int, default=200)
    args = ap.parse_args(argv)
    source = (ROOT / "benchmarks" / args.workload / f"{args.workload}.m").read_text()
    session = Session(stdout=io.StringIO())
    for name, value in (arg.split("=") for arg in args.params):
        session.set(name, np.float64(float(value)))
    bucket = {"gather": 0.0, "materialize": 0.0}
    timed_method(gpuarray.GpuArray, "gather", bucket, "gather")
    timed_method(executor.FusionExecutor, "materialize", bucket, "materialize")
    for _ in range(10):
        session.eval(source)
    accel = ensure_provider()
    accel.synchronize()
    rows: list[dict[str, float]] = []
    for _ in range(args.runs):
        for key in bucket:
            bucket[key] = 0.0
        before = dict(accel.telemetry().get("phase_seconds", {}))
        start = time.perf_counter()
        session.eval(source)
        total = time.perf_counter() - start
        after = accel.telemetry().get("phase_seconds", {})
        phases = {k: after.get(k, 0.0) - before.get(k, 0.0) for k in _PHASES}
        rows.append({
            "total": total,
            "interpreter": total - bucket["gather"] - phases["upload"],
            "materialize": bucket["materialize"],
            "download host": bucket["gather"] - bucket["materialize"] - phases["submit"]
            - phases["device_wait"],
            "host (rest)": total - sum(phases.values()),
            **phases,
        })
    keys = ["total", "host (rest)", "interpreter", "materialize", "download host", *_PHASES]
    medians = {k: statistics.median(r[k] for r in rows) * 1e6 for k in keys}
    print(f"{args.workload} {' '.join(args.params)} on {accel.name}: "
          + ", ".join(f"{k} {v:.0f}" for k, v in medians.items()) + f" us (median of {args.runs})")


if __name__ == "__main__":
    main()
