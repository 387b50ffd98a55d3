"""Host time of forced materialisations with and without the executor's
launch-plan cache (``fusion/_launch_plan.py``).

    PYTHONPATH=src MATFUSE_PROVIDER=cuda python benchmarks/device/launch_plan_bench.py elementwise n=1e3 gpu=1
    PYTHONPATH=src MATFUSE_PROVIDER=wgpu python benchmarks/device/launch_plan_bench.py imagenorm B=2 H=16 W=16 gpu=1

Runs the workload script repeatedly, alternating blocks with the cache on
and off (machine noise hits both alike). Per run: ``materialize`` (all of
FusionExecutor.materialize), ``launch`` (inside the provider's
``fused_elementwise``), ``plan`` (the difference: walking, planning,
rendering, binding) and the whole script; medians in microseconds.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from pathlib import Path

import numpy as np

from matfuse.accelerate.facade import ensure_provider
from matfuse.accelerate.fusion import executor
from matfuse.vm.session import Session

from host_split import timed_method  # (this folder: run as a script)

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("workload")
    ap.add_argument("params", nargs="*", help="NAME=VALUE script variables")
    ap.add_argument("--runs", type=int, default=400, help="timed runs per mode")
    ap.add_argument("--block", type=int, default=20, help="runs per block before switching modes")
    args = ap.parse_args(argv)
    source = (ROOT / "benchmarks" / args.workload / f"{args.workload}.m").read_text()
    session = Session(stdout=io.StringIO())
    for name, value in (arg.split("=") for arg in args.params):
        session.set(name, np.float64(float(value)))
    accel = ensure_provider()
    bucket = {"materialize": 0.0, "launch": 0.0}
    timed_method(executor.FusionExecutor, "materialize", bucket, "materialize")
    timed_method(type(accel), "fused_elementwise", bucket, "launch")
    plans = executor.executor_for(accel).launch_plans
    limit = plans.limit
    rows: dict[bool, list[dict[str, float]]] = {True: [], False: []}
    counts = {"launch_plan_hits": 0, "launch_plan_misses": 0, "fused_groups": 0}
    for _ in range(10):
        session.eval(source)
    accel.synchronize()
    while len(rows[False]) < args.runs:
        for enabled in (True, False):
            plans.limit = limit if enabled else 0
            plans.clear()
            session.eval(source)  # records the plan (or plans without one)
            before = executor.STATS.as_dict()
            for _ in range(args.block):
                for key in bucket:
                    bucket[key] = 0.0
                start = time.perf_counter()
                session.eval(source)
                total = time.perf_counter() - start
                rows[enabled].append({"total": total, **bucket,
                                      "plan": bucket["materialize"] - bucket["launch"]})
            if enabled:
                after = executor.STATS.as_dict()
                for key in counts:
                    counts[key] += after[key] - before[key]
            accel.synchronize()
    print(f"{args.workload} {' '.join(args.params)} on {accel.name} "
          f"(median of {args.runs} runs per mode, us):")
    for enabled in (False, True):
        med = {k: statistics.median(r[k] for r in rows[enabled]) * 1e6
               for k in ("total", "materialize", "launch", "plan")}
        label = "launch plans on " if enabled else "launch plans off"
        print(f"  {label}: " + ", ".join(f"{k} {v:.1f}" for k, v in med.items()))
    print("  timed runs with launch plans on: " + ", ".join(f"{k} {v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
