"""Runs one implementation of one workload in this process and prints JSON.

    python -m benchmarks._worker IMPL WORKLOAD --params '{"n": 1e6}' --iters 5 --warmup 1

IMPL: matfuse | matfuse-gpu | numpy | torch | torch-compile | cupy | octave.
Output: one JSON line {"impl", "workload", "checksum", "times", "stats"}; times
are warm in-process seconds per iteration (device synchronised).
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
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
CHECKSUM = re.compile(r"checksum\s+(\S+)")


def script_path(workload: str) -> Path:
    return HERE / workload / f"{workload}.m"


def time_calls(fn: Callable[[], Any], iters: int, warmup: int,
               sync: Callable[[], None] = lambda: None) -> tuple[Any, list[float]]:
    result = None
    for _ in range(warmup):
        result = fn()
        sync()
    times = []
    for _ in range(iters):
        start = time.perf_counter()
        result = fn()
        sync()
        times.append(time.perf_counter() - start)
    return result, times


def run_matfuse(workload: str, params: dict[str, Any], iters: int, warmup: int,
                gpu: bool) -> dict[str, Any]:
    import numpy as np

    import matfuse

    session = matfuse.Session(stdout=io.StringIO())
    source = script_path(workload).read_text()
    out = session.stdout

    def once() -> str:
        out.seek(0)
        out.truncate()
        for name, value in params.items():
            session.set(name, np.float64(value))
        session.set("gpu", np.float64(1.0 if gpu else 0.0))
        session.eval(source)
        return out.getvalue()

    text, times = time_calls(once, iters, warmup)
    match = CHECKSUM.search(text)
    stats = session.stats() if hasattr(session, "stats") else {}
    return {"checksum": float(match.group(1)) if match else None, "times": times,
            "stats": stats, "output": text[-400:]}


def run_xp(xp_name: str, workload: str, params: dict[str, Any], iters: int,
           warmup: int) -> dict[str, Any]:
    from benchmarks.peers import XP_IMPLS

    xp = __import__(xp_name)
    sync = (lambda: xp.cuda.Device().synchronize()) if xp_name == "cupy" else (lambda: None)
    fn = XP_IMPLS[workload]
    result, times = time_calls(lambda: fn(xp, **params), iters, warmup, sync)
    return {"checksum": float(result), "times": times}


def run_torch(workload: str, params: dict[str, Any], iters: int, warmup: int,
              compiled: bool) -> dict[str, Any]:
    import torch

    from benchmarks.peers import TORCH_IMPLS

    device = "cuda" if torch.cuda.is_available() else "cpu"
    fn = TORCH_IMPLS[workload](torch, device, **params)
    if compiled:
        fn = torch.compile(fn)
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    result, times = time_calls(lambda: fn(), iters, max(warmup, 2 if compiled else warmup), sync)
    return {"checksum": float(result), "times": times, "device": device}


def run_octave(workload: str, params: dict[str, Any], iters: int, warmup: int) -> dict[str, Any]:
    setup = " ".join(f"{k} = {float(v)!r};" for k, v in params.items())
    body = (f"{setup} gpu = 0; ts = zeros(1, {iters + warmup});"
            f" for k__ = 1:{iters + warmup}, t0__ = tic; run('{script_path(workload)}'); ts(k__) = toc(t0__); end;"
            f" fprintf('times %s\\n', sprintf('%.6f ', ts({warmup + 1}:end)));")
    env = dict(os.environ, XDG_RUNTIME_DIR=tempfile.gettempdir())
    proc = subprocess.run(["octave", "--no-gui", "-q", "--eval", body], capture_output=True,
                          text=True, env=env, timeout=3600)
    text = proc.stdout
    match = CHECKSUM.search(text)
    times_line = re.search(r"times\s+(.*)", text)
    times = [float(t) for t in times_line.group(1).split()] if times_line else []
    return {"checksum": float(match.group(1)) if match else None, "times": times,
            "error": proc.stderr[-400:] if proc.returncode else ""}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("impl")
    parser.add_argument("workload")
    parser.add_argument("--params", default="{}")
    parser.add_argument("--iters", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    args = parser.parse_args(argv)
    params = json.loads(args.params)
    impl = args.impl
    if impl in ("matfuse", "matfuse-gpu"):
        result = run_matfuse(args.workload, params, args.iters, args.warmup, impl == "matfuse-gpu")
    elif impl in ("numpy", "cupy"):
        result = run_xp(impl, args.workload, params, args.iters, args.warmup)
    elif impl in ("torch", "torch-compile"):
        result = run_torch(args.workload, params, args.iters, args.warmup, impl == "torch-compile")
    elif impl == "octave":
        result = run_octave(args.workload, params, args.iters, args.warmup)
    else:
        print(f"unknown implementation {impl}", file=sys.stderr)
        return 2
    result.update({"impl": impl, "workload": args.workload, "params": params})
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
