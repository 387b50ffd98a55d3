"""The seeded Monte-Carlo script (``seeded_montecarlo.m``) on the CPU and
under auto-offload, with the twister stream (``rng(seed)``) and with
``rng(seed, 'philox')``.

    PYTHONPATH=src:. python benchmarks/rng/seeded_script.py wgpu --M 1e5 --T 8
    PYTHONPATH=src:. python benchmarks/rng/seeded_script.py cuda --M 1e6 --T 256 --runs 3

Prints the median wall time of ``--runs`` runs (after a warm-up run) and
the checksum line of each: the twister run's checksum must equal the CPU
run's (same stream); the philox run draws other numbers.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "rng" / "seeded_montecarlo.m"


def run_once(params: dict[str, float]) -> tuple[float, str]:
    from matfuse.vm.session import Session

    out = io.StringIO()
    session = Session(stdout=out, stderr=io.StringIO())
    for key, value in params.items():
        session.set(key, value)
    t0 = time.perf_counter()
    session.run_file(str(SCRIPT))
    return time.perf_counter() - t0, out.getvalue().strip()


def timed(params: dict[str, float], runs: int) -> tuple[float, str]:
    run_once(params)
    times, line = [], ""
    for _ in range(runs):
        dt, line = run_once(params)
        times.append(dt)
    return statistics.median(times), line


def main(argv: list[str] | None = None) -> int:
    from matfuse.accelerate.options import AccelerateInitOptions
    from matfuse.accelerate.planner import offload
    from matfuse.accelerate_api import override_provider

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("provider", choices=("wgpu", "cuda", "inprocess"))
    ap.add_argument("--M", type=float, default=1e6)
    ap.add_argument("--T", type=float, default=16)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    base = {"M": args.M, "T": args.T}
    offload.reset()
    offload.deactivate()
    cpu_s, cpu_line = timed({**base, "philox": 0.0}, args.runs)
    p = _provider(args.provider)
    with override_provider(p):
        offload.activate(p, options=AccelerateInitOptions(provider=args.provider,
                                                          auto_offload="force"))
        tw_s, tw_line = timed({**base, "philox": 0.0}, args.runs)
        ph_s, ph_line = timed({**base, "philox": 1.0}, args.runs)
        offload.reset()
    print(f"# device: {p.device_info()}  M={args.M:.0e} T={args.T:.0f}")
    print(f"cpu (twister)       {cpu_s * 1e3:10.1f} ms  {cpu_line}")
    print(f"device twister      {tw_s * 1e3:10.1f} ms  {tw_line}  same as cpu: {tw_line == cpu_line}")
    print(f"device philox       {ph_s * 1e3:10.1f} ms  {ph_line}")
    print(f"twister/philox {tw_s / ph_s:.2f}x   twister/cpu {tw_s / cpu_s:.2f}x")
    return 0


def _provider(name: str) -> Any:
    if name == "wgpu":
        from matfuse.accelerate.providers.wgpu import WgpuProvider

        p = WgpuProvider()
    elif name == "cuda":
        from matfuse.accelerate.providers.cuda.provider import CudaProvider

        p = CudaProvider()
    else:
        from matfuse.accelerate.providers.inprocess import InProcessProvider

        p = InProcessProvider()
    return p


if __name__ == "__main__":
    raise SystemExit(main())
