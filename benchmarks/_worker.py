"""Runs one implementation of one workload in this process and prints JSON.

    python -m benchmarks._worker IMPL WORKLOAD --params '{"n": 1e6}' --iters 5 --warmup 1

IMPL: matfuse | matfuse-gpu | matfuse-host | numpy | torch | torch-compile |
cupy | octave. ``matfuse`` is the default configuration (automatic offload
to whatever provider ``auto`` picks); ``matfuse-gpu`` runs the script with
``gpu = 1`` (explicit gpuArray inputs); ``matfuse-host`` forces the in-process
provider with automatic offload off (the host baseline).

Output: one JSON line {"impl", "workload", "checksum", "output", "times", ...};
times are warm in-process seconds per iteration, device synchronised.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable

from benchmarks.workloads import OCTAVE_SHIMS, Params, Workload, workload_by_name

CHECKSUM = re.compile(r"checksum\s+(\S+)")
RUN_MARK = "@@run@@\n"
NOT_APPLICABLE = "not applicable"   # an error that is a known gap, not a failure
OUTPUT_KEEP = 4000     # characters of a run's output kept for text parity


def time_calls(fn: Callable[[], Any], iters: int, warmup: int,
               sync: Callable[[], None] = lambda: None,
               after_warmup: Callable[[], None] = lambda: None) -> tuple[Any, list[float]]:
    result = None
    for _ in range(warmup):
        result = fn()
        sync()
    after_warmup()
    times = []
    for _ in range(iters):
        start = time.perf_counter()
        result = fn()
        sync()
        times.append(time.perf_counter() - start)
    return result, times


def parse_checksum(text: str) -> float | None:
    match = CHECKSUM.search(text)
    if match is None:
        return None
    try:
        return float(match.group(1))
    except ValueError:
        return None


# ------------------------------------------------------------------ matfuse
def run_matfuse(work: Workload, params: Params, iters: int, warmup: int,
                gpu: bool) -> dict[str, Any]:
    import matfuse
    from matfuse.errors import MatlabError
    from matfuse.accelerate.facade import acceleration_state, ensure_provider
    from matfuse.accelerate_api import fallback_counts, reset_fallback_counts

    out = io.StringIO()
    session = matfuse.Session(stdout=out)
    accel = ensure_provider()

    def once() -> str:
        out.seek(0)
        out.truncate()
        session.eval("clear")
        for name, value in params.items():
            session.set(name, float(value))
        session.set("gpu", 1.0 if gpu else 0.0)
        session.run_file(str(work.script))
        return out.getvalue()

    def reset_counters() -> None:
        accel.reset_telemetry()
        reset_fallback_counts()

    try:
        text, times = time_calls(once, iters, warmup, accel.synchronize, reset_counters)
    except MatlabError as err:
        return {"error": err.report()[-600:], "output": out.getvalue()[-OUTPUT_KEEP:]}
    state = acceleration_state()
    return {"checksum": parse_checksum(text), "output": text[-OUTPUT_KEEP:], "times": times,
            "provider": state.description if state else accel.name,
            "telemetry": _per_iteration(accel.telemetry(), iters),
            "fallbacks": fallback_counts()}


def _per_iteration(counters: dict[str, Any], iters: int) -> dict[str, Any]:
    """Counters of the timed iterations, divided by their number."""
    flat = {k: v / max(iters, 1) for k, v in counters.items()
            if isinstance(v, (int, float)) and k != "live_buffers"}
    flat["live_buffers"] = counters.get("live_buffers", 0)
    return flat


# ------------------------------------------------------------------ python peers
def run_xp(xp_name: str, work: Workload, params: Params, iters: int,
           warmup: int) -> dict[str, Any]:
    peers = work.peers()
    xp = __import__(xp_name)
    sync = (lambda: xp.cuda.Device().synchronize()) if xp_name == "cupy" else (lambda: None)
    result, times = time_calls(lambda: peers.run_xp(xp, **params), iters, warmup, sync)
    return {"checksum": float(result), "times": times}


def run_torch(work: Workload, params: Params, iters: int, warmup: int,
              compiled: bool) -> dict[str, Any]:
    if compiled and not work.torch_compile:
        return {"error": f"{NOT_APPLICABLE}: the peer is a Python loop (nothing to compile)"}
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"
    fn = work.peers().make_torch(torch, device, **params)
    if compiled:
        fn = torch.compile(fn)
        warmup = max(warmup, 2)     # the first calls compile
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    result, times = time_calls(fn, iters, warmup, sync)
    return {"checksum": float(result), "times": times, "device": device}


# ------------------------------------------------------------------ octave
def run_octave(work: Workload, params: Params, iters: int, warmup: int) -> dict[str, Any]:
    """Octave runs the same .m; times come from tic/toc inside one Octave
    process (warm), the output of the last run is kept. The script is called
    by name from its own folder (``run()`` would add ~20 ms of path work)."""
    if work.octave_gap:
        return {"error": f"{NOT_APPLICABLE}: {work.octave_gap}"}
    setup = " ".join(f"{k} = {float(v)!r};" for k, v in params.items())
    total = iters + warmup
    body = (f"addpath('{OCTAVE_SHIMS}'); ts__ = zeros(1, {total});"
            f" for k__ = 1:{total}, clear -x ts__ k__; {setup} gpu = 0;"
            f" fprintf('{RUN_MARK.strip()}\\n'); t0__ = tic; {work.script.stem};"
            f" ts__(k__) = toc(t0__); end;"
            f" fprintf('\\n{RUN_MARK.strip()}\\ntimes %s\\n',"
            f" sprintf('%.9f ', ts__({warmup + 1}:end)));")
    env = dict(os.environ, XDG_RUNTIME_DIR=tempfile.gettempdir())
    proc = subprocess.run(["octave", "--no-gui", "-q", "--eval", body], capture_output=True,
                          text=True, env=env, timeout=3600, cwd=work.script.parent)
    segments = proc.stdout.split(RUN_MARK)
    times_line = re.search(r"times\s+(.*)", segments[-1]) if len(segments) > 2 else None
    if proc.returncode != 0 or times_line is None:
        return {"error": (proc.stderr or proc.stdout)[-600:]}
    # the last run's output ends with the newline printed before the final mark
    text = segments[-2][:-1] if segments[-2].endswith("\n") else segments[-2]
    return {"checksum": parse_checksum(text), "output": text[-OUTPUT_KEEP:],
            "times": [float(t) for t in times_line.group(1).split()]}


# ------------------------------------------------------------------ entry points
def run_impl(impl: str, workload: str, params: Params, iters: int, warmup: int) -> dict[str, Any]:
    """Run one implementation here; the result dict (``error`` on failure)."""
    work = workload_by_name(workload)
    if impl in ("matfuse", "matfuse-gpu", "matfuse-host"):
        result = run_matfuse(work, params, iters, warmup, impl == "matfuse-gpu")
    elif impl in ("numpy", "cupy"):
        result = run_xp(impl, work, params, iters, warmup)
    elif impl in ("torch", "torch-compile"):
        result = run_torch(work, params, iters, warmup, impl == "torch-compile")
    elif impl == "octave":
        result = run_octave(work, params, iters, warmup)
    else:
        result = {"error": f"unknown implementation {impl}"}
    result.update({"impl": impl, "workload": workload, "params": params})
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("impl")
    parser.add_argument("workload")
    parser.add_argument("--params", default="{}")
    parser.add_argument("--iters", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    args = parser.parse_args(argv)
    if args.impl == "matfuse-host":
        # before matfuse starts its provider: the host-only configuration
        os.environ["MATFUSE_PROVIDER"] = "inprocess"
        os.environ["MATFUSE_AUTO_OFFLOAD"] = "0"
    result = run_impl(args.impl, args.workload, json.loads(args.params), args.iters, args.warmup)
    print(json.dumps(result))
    return 0 if "error" not in result else 1


if __name__ == "__main__":
    sys.exit(main())
