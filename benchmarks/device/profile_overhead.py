"""Per-run fixed cost of a workload on the current device: wall time, where
it goes (host work vs submit vs waiting for the device), how many submits
and blocking read-backs a run makes, then the top functions by own time.

    PYTHONPATH=src MATFUSE_PROVIDER=wgpu python benchmarks/device/profile_overhead.py elementwise n=1e6
    PYTHONPATH=src MATFUSE_PROVIDER=wgpu python benchmarks/device/profile_overhead.py elementwise n=1e6 --no-profile [--poll-thread]

Timing: 5 warm-up runs, then the median of ``--runs`` (default 20) single
runs, each ending with its own ``gather`` (the script's host sink).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from matfuse.accelerate_api import provider
from matfuse.vm.session import Session

ROOT = Path(__file__).resolve().parents[2]
#: provider phases that partition a run's device-facing time ("download" and
#: "synchronize" enclose submit + device_wait, so they are not listed)
_PHASES = ("upload", "submit", "device_wait")
_PER_RUN_KEYS = ("dispatches", "submits", "readbacks", "downloads", "uploads", "syncs",
                 "bind_group_misses", "buffer_pool_misses", "pipeline_cache_misses")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("workload")
    ap.add_argument("params", nargs="*", help="NAME=VALUE script variables")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--no-profile", action="store_true", help="skip the cProfile listing")
    ap.add_argument("--poll-thread", action="store_true",
                    help="wgpu: wait for downloads through wgpu-py's poll thread")
    args = ap.parse_args(argv)
    if args.poll_thread:
        from matfuse.accelerate.providers.wgpu import staging

        staging.POLL_ON_CALLER = False
    params = dict(arg.split("=") for arg in args.params)
    source = (ROOT / "benchmarks" / args.workload / f"{args.workload}.m").read_text()
    session = Session(stdout=io.StringIO())
    for name, value in params.items():
        session.set(name, np.float64(float(value)))
    session.set("gpu", np.float64(1.0))
    for _ in range(5):
        session.eval(source)
    accel = provider()
    accel.synchronize()
    has_reset = hasattr(accel, "reset_telemetry")
    if has_reset:
        accel.reset_telemetry()
    times: list[float] = []
    phase_runs: dict[str, list[float]] = {k: [] for k in _PHASES}
    for _ in range(args.runs):
        before = dict(accel.telemetry().get("phase_seconds", {}))
        t0 = time.perf_counter()
        session.eval(source)
        times.append(time.perf_counter() - t0)
        after = accel.telemetry().get("phase_seconds", {})
        for k in _PHASES:
            phase_runs[k].append(after.get(k, 0.0) - before.get(k, 0.0))
    med = statistics.median(times)
    print(f"{args.workload} {params} on {accel.device_info()}: median {med * 1e3:.3f} ms, "
          f"min {min(times) * 1e3:.3f} ms ({args.runs} runs)")
    tel = accel.telemetry()
    per_run = {k: tel[k] / args.runs for k in _PER_RUN_KEYS if k in tel}
    print("per run: " + ", ".join(f"{k} {v:g}" for k, v in per_run.items()))
    if any(any(v) for v in phase_runs.values()):
        host = [t - sum(phase_runs[k][i] for k in _PHASES) for i, t in enumerate(times)]
        parts = {k: statistics.median(v) * 1e3 for k, v in phase_runs.items()}
        parts["host (rest)"] = statistics.median(host) * 1e3
        print("median ms per run by phase: "
              + ", ".join(f"{k} {v:.3f}" for k, v in parts.items()))
    if args.no_profile:
        return
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(args.runs):
        session.eval(source)
    profile.disable()
    stats = pstats.Stats(profile, stream=sys.stdout)
    stats.sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
