"""Host time per statement of a workload script: the script's first k lines
are timed for every k, so each line's cost is the increase over the line
before (the forcing ``fprintf(..., gather(s))`` line carries the whole lazy
graph's materialisation).

    PYTHONPATH=src MATFUSE_PROVIDER=cuda python benchmarks/device/stmt_time.py elementwise n=1e3 gpu=1
    PYTHONPATH=src MATFUSE_PROVIDER=wgpu python benchmarks/device/stmt_time.py imagenorm B=2 H=16 W=16 gpu=1 --no-launch-plans

Medians in microseconds over ``--runs`` runs after ``--warmup`` runs.
``--no-launch-plans`` turns the executor's launch-plan cache off
(``fusion/_launch_plan.py``) to show what it saves.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from pathlib import Path

from matfuse.accelerate.facade import ensure_provider
from matfuse.accelerate.fusion.executor import executor_for
from matfuse.vm.session import Session

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("workload")
    ap.add_argument("params", nargs="*", help="NAME=VALUE script variables")
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--warmup", type=int, default=30)
    ap.add_argument("--no-launch-plans", action="store_true")
    args = ap.parse_args(argv)
    lines = (ROOT / "benchmarks" / args.workload / f"{args.workload}.m").read_text().splitlines()
    session = Session(stdout=io.StringIO())
    accel = ensure_provider()
    if args.no_launch_plans:
        executor_for(accel).launch_plans.limit = 0
    params = [(name, float(value)) for name, value in (p.split("=") for p in args.params)]

    def once(source: str) -> None:
        session.eval("clear")
        for name, value in params:
            session.set(name, value)
        session.eval(source)

    previous = 0.0
    for k in range(1, len(lines) + 1):
        source = "\n".join(lines[:k])
        if source.count("if") > source.count("end"):  # inside a block: not runnable yet
            continue
        for _ in range(args.warmup):
            once(source)
        accel.synchronize()
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            once(source)
            times.append(time.perf_counter() - start)
        accel.synchronize()
        median = statistics.median(times) * 1e6
        print(f"{median:8.1f} us  +{median - previous:7.1f}  {lines[k - 1][:70]}")
        previous = median


if __name__ == "__main__":
    main()
