"""Parallel benchmarks (``docs/benchmarks/parallel.md``).

    python benchmarks/parallel/run.py cpu [--workers 16] [--iters 64] [--inner 450000]
    python benchmarks/parallel/run.py gpu [--gpus 1 2] [--batches 8] [--reps 200]
                                          [--samples 8000000] [--provider cuda]

``cpu``: the serial ``for`` loop in this process (after a warm-up run that
compiles the script), then ``parfor`` on a local
pool of ``--workers`` processes (pool start-up timed separately; one warm-up
parfor first so worker start-up costs are not counted). ``gpu``: the
Monte-Carlo parfor on pools of 1 and 2 workers, each owning one GPU
(``CUDA_VISIBLE_DEVICES``). Prints one JSON line per measurement and a
Markdown table at the end.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def _session(provider: str | None):
    from matfuse.accelerate.facade import initialize_acceleration_provider
    from matfuse.accelerate.options import AccelerateInitOptions
    from matfuse.vm.session import Session

    options = None
    if provider:
        options = AccelerateInitOptions.from_env(provider=provider)
        initialize_acceleration_provider(options)
    session = Session(stdout=io.StringIO(), options=options)
    session.eval(f"cd('{HERE}')")
    return session


def _timed(session, code: str) -> float:
    start = time.perf_counter()
    session.eval(code)
    return time.perf_counter() - start


def _open_pool(session, workers: int) -> float:
    from matfuse.parallel import pool as _pool

    if _pool.current() is not None:
        _pool.current().delete()
    return _timed(session, f"parpool({workers});")


def cpu(args: argparse.Namespace) -> list[dict]:
    session = _session(args.provider)
    setup = f"ITERS = {args.iters}; INNER = {args.inner};"
    rows = []
    # Warm-up: the first run parses and compiles the script and function.
    session.eval(f"ITERS = {args.iters}; INNER = 10; USE_PARFOR = false; cpu_scalar;")
    serial = _timed(session, setup + " USE_PARFOR = false; cpu_scalar;")
    expected = session.get("checksum")
    rows.append({"bench": "cpu_scalar", "mode": "serial for", "workers": 1,
                 "seconds": serial, "checksum": expected})
    start = _open_pool(session, args.workers)
    session.eval("ITERS = 2 * gcp().NumWorkers; INNER = 10; USE_PARFOR = true; cpu_scalar;")
    par = _timed(session, setup + " USE_PARFOR = true; cpu_scalar;")
    assert session.get("checksum") == expected, "parfor result differs from the serial loop"
    rows.append({"bench": "cpu_scalar", "mode": "parfor", "workers": args.workers,
                 "seconds": par, "pool_start_s": start, "speedup": serial / par,
                 "checksum": session.get("checksum")})
    session.eval("delete(gcp('nocreate'))")
    return rows


def gpu(args: argparse.Namespace) -> list[dict]:
    session = _session(args.provider)
    setup = f"BATCHES = {args.batches}; REPS = {args.reps}; SAMPLES = {args.samples};"
    rows = []
    base = None
    for count in args.gpus:
        start = _open_pool(session, count)
        # Warm-up: every worker starts its provider and compiles its kernels.
        session.eval(f"BATCHES = {4 * count}; REPS = 1; SAMPLES = 1000; gpu_montecarlo;")
        seconds = _timed(session, setup + " gpu_montecarlo;")
        gpus = sorted(info["gpu"] or "-" for info in
                      _pool_info(session).values())
        row = {"bench": "gpu_montecarlo", "mode": "parfor", "workers": count,
               "worker_gpus": gpus, "seconds": seconds, "pool_start_s": start,
               "estimate": session.get("estimate")}
        if base is None:
            base = seconds
        row["speedup_vs_first"] = base / seconds
        rows.append(row)
        session.eval("delete(gcp('nocreate'))")
    return rows


def _pool_info(session) -> dict:
    from matfuse.parallel import pool as _pool
    from matfuse.parallel.worker import worker_info

    return _pool.current().client.run(worker_info)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("which", choices=("cpu", "gpu"))
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--iters", type=int, default=64)
    parser.add_argument("--inner", type=int, default=450000)
    parser.add_argument("--gpus", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--batches", type=int, default=8)
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--samples", type=int, default=8_000_000)
    parser.add_argument("--provider", default=None)
    args = parser.parse_args(argv)
    rows = cpu(args) if args.which == "cpu" else gpu(args)
    for row in rows:
        print(json.dumps(row))
    print("\n| bench | mode | workers | seconds | speedup |\n|---|---|---|---|---|")
    for row in rows:
        speed = row.get("speedup", row.get("speedup_vs_first", 1.0))
        print(f"| {row['bench']} | {row['mode']} | {row['workers']} | "
              f"{row['seconds']:.2f} | {speed:.2f}x |")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
