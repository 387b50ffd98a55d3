"""Parallel benchmarks (``docs/benchmarks/parallel.md``).

    python benchmarks/parallel/run.py cpu [--workers 16] [--iters 64] [--inner 450000]
    python benchmarks/parallel/run.py gpu [--gpus 1 2] [--batches 8] [--paths 2e7]
                                          [--steps 4096] [--provider cuda] [--tiny]

``cpu``: ``cpu_scalar.m``: the serial ``for`` loop in this process (after a
warm-up run that compiles the script), then ``parfor`` on a local pool of
``--workers`` processes (pool start-up timed separately; one warm-up parfor
first). ``gpu``: ``gpu_montecarlo.m``, 8 Monte-Carlo batches: serially in
this process (no pool), then on pools of 1 and 2 workers, each owning one
GPU (``CUDA_VISIBLE_DEVICES``); every run's estimate must be identical.
``--tiny``: small sizes (a CPU adapter, CI machines).

Prints one JSON line per measurement, a table of times and ratios, and the
timed parfor's breakdown: client phases (preparing the job, scattering it,
submitting chunks, waiting, merging), worker phases summed over workers,
the busiest and least busy worker, and the fixed cost of a near-empty
parfor on the warm pool.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
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


def _timed_parfor(session, code: str) -> tuple[float, dict]:
    """Seconds of ``code`` (one parfor) and its breakdown from the stats."""
    from matfuse.parallel.stats import STATS

    STATS.phases.clear()
    STATS.worker_seconds.clear()
    STATS.worker_tasks.clear()
    chunks = STATS.chunks
    seconds = _timed(session, code)
    busy = STATS.worker_seconds
    return seconds, {"phases": {k: round(v, 4) for k, v in STATS.phases.items()},
                     "chunks": STATS.chunks - chunks,
                     "busiest_worker_s": round(max(busy.values()), 4),
                     "least_busy_worker_s": round(min(busy.values()), 4),
                     "workers_used": len(busy)}


def _empty_parfor(session, workers: int, repeats: int = 5) -> float:
    """Median seconds of a parfor of one near-empty iteration per worker."""
    code = f"r = zeros(1, {workers}); parfor i = 1:{workers}, r(i) = i; end"
    session.eval(code)
    return statistics.median(_timed(session, code) for _ in range(repeats))


def cpu(args: argparse.Namespace) -> list[dict]:
    session = _session(args.provider)
    setup = f"ITERS = {args.iters}; INNER = {args.inner};"
    # Warm-up: the first run parses and compiles the script and function.
    session.eval(f"ITERS = {args.iters}; INNER = 10; USE_PARFOR = false; cpu_scalar;")
    serial = _timed(session, setup + " USE_PARFOR = false; cpu_scalar;")
    expected = session.get("checksum")
    rows = [{"bench": "cpu_scalar", "mode": "serial for", "workers": 1, "seconds": serial,
             "per_iteration_s": serial / args.iters, "checksum": expected}]
    start = _open_pool(session, args.workers)
    session.eval("ITERS = 2 * gcp().NumWorkers; INNER = 10; USE_PARFOR = true; cpu_scalar;")
    empty = _empty_parfor(session, args.workers)
    par, breakdown = _timed_parfor(session, setup + " USE_PARFOR = true; cpu_scalar;")
    got = session.get("checksum")
    iterations = breakdown["phases"].get("iterations", 0.0)
    rows.append({"bench": "cpu_scalar", "mode": "parfor", "workers": args.workers,
                 "seconds": par, "pool_start_s": start, "speedup": serial / par,
                 "ideal_s": serial / args.workers, "empty_parfor_s": empty,
                 "worker_per_iteration_s": iterations / args.iters,
                 "checksum": got, "identical": got == expected, **breakdown})
    session.eval("delete(gcp('nocreate'))")
    if got != expected:
        raise SystemExit("parfor checksum differs from the serial loop's")
    return rows


def gpu(args: argparse.Namespace) -> list[dict]:
    session = _session(args.provider)
    if args.tiny:
        args.paths, args.steps = min(args.paths, 2000), min(args.steps, 16)
    setup = f"BATCHES = {args.batches}; PATHS = {args.paths:.0f}; STEPS = {args.steps};"
    # Warm-up at full size, one batch per process: kernels are compiled
    # for the timed run's shapes.
    warm = f"BATCHES = {{}}; PATHS = {args.paths:.0f}; STEPS = {args.steps}; gpu_montecarlo;"
    session.eval(warm.format(1))
    serial = _timed(session, setup + " gpu_montecarlo;")
    expected = session.get("estimate")
    rows = [{"bench": "gpu_montecarlo", "mode": "serial (no pool)", "workers": 1,
             "seconds": serial, "estimate": expected}]
    base = None
    for count in args.gpus:
        start = _open_pool(session, count)
        # Warm-up: every worker starts its provider and compiles its kernels.
        session.eval(warm.format(count))
        empty = _empty_parfor(session, count)
        seconds, breakdown = _timed_parfor(session, setup + " gpu_montecarlo;")
        gpus = sorted(info["gpu"] or "-" for info in _pool_info(session).values())
        base = seconds if base is None else base
        rows.append({"bench": "gpu_montecarlo", "mode": "parfor", "workers": count,
                     "worker_gpus": gpus, "seconds": seconds, "pool_start_s": start,
                     "speedup": base / seconds, "vs_serial": serial / seconds,
                     "empty_parfor_s": empty, "estimate": session.get("estimate"),
                     "identical": session.get("estimate") == expected, **breakdown})
        session.eval("delete(gcp('nocreate'))")
    if not all(row.get("identical", True) for row in rows):
        raise SystemExit("estimates differ between runs: " +
                         ", ".join(repr(row["estimate"]) for row in rows))
    return rows


def _pool_info(session) -> dict:
    from matfuse.parallel import pool as _pool
    from matfuse.parallel.worker import worker_info

    return _pool.current().client.run(worker_info)


def _report(rows: list[dict]) -> None:
    for row in rows:
        print(json.dumps(row))
    print("\n| bench | mode | workers | seconds | speedup | identical |\n|---|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['bench']} | {row['mode']} | {row['workers']} | {row['seconds']:.3f} | "
              f"{row.get('speedup', 1.0):.2f}x | {row.get('identical', '-')} |")
    for row in rows:
        if "phases" not in row:
            continue
        print(f"\nBreakdown, parfor on {row['workers']} workers ({row['chunks']} chunks, "
              f"pool start {row['pool_start_s']:.2f} s not included):")
        for name, seconds in row["phases"].items():
            print(f"  {name:<16} {seconds:8.3f} s")
        print(f"  busiest worker   {row['busiest_worker_s']:8.3f} s busy; least busy "
              f"{row['least_busy_worker_s']:.3f} s")
        print(f"  near-empty parfor (one iteration a worker): {row['empty_parfor_s']:.3f} s")
        if "worker_per_iteration_s" in row:
            print(f"  per iteration: {row['worker_per_iteration_s']:.3f} s on the workers, "
                  f"{rows[0]['per_iteration_s']:.3f} s serial; ideal parfor {row['ideal_s']:.3f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("which", choices=("cpu", "gpu"))
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--iters", type=int, default=64)
    parser.add_argument("--inner", type=int, default=450000)
    parser.add_argument("--gpus", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--batches", type=int, default=8)
    parser.add_argument("--paths", type=float, default=2e7)
    parser.add_argument("--steps", type=int, default=4096)
    parser.add_argument("--tiny", action="store_true",
                        help="gpu: at most 2000 paths of 16 steps (CPU adapters)")
    parser.add_argument("--provider", default=None)
    args = parser.parse_args(argv)
    rows = cpu(args) if args.which == "cpu" else gpu(args)
    _report(rows)
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
