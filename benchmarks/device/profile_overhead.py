"""Profile matfuse's per-run host overhead for a workload on the current
device (cProfile, top functions by own time). Used to find fixed costs on
the GPU machine; prints a short report.

    python benchmarks/device/profile_overhead.py elementwise n=1e6
"""

from __future__ import annotations

import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

import numpy as np

from matfuse.vm.session import Session

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    workload = sys.argv[1]
    params = dict(arg.split("=") for arg in sys.argv[2:])
    source = (ROOT / "benchmarks" / workload / f"{workload}.m").read_text()
    session = Session(stdout=io.StringIO())
    for name, value in params.items():
        session.set(name, np.float64(float(value)))
    session.set("gpu", np.float64(1.0))
    for _ in range(3):
        session.eval(source)
    runs = 10
    start = time.perf_counter()
    for _ in range(runs):
        session.eval(source)
    print(f"{workload} {params}: {(time.perf_counter() - start) / runs * 1e3:.3f} ms per run")
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(runs):
        session.eval(source)
    profile.disable()
    stats = pstats.Stats(profile, stream=sys.stdout)
    stats.sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
