"""Runs one implementation of one workload in this process and prints JSON.

    python -m benchmarks._worker IMPL WORKLOAD --params '{"n": 1e6}' --iters 5 --warmup 1

IMPL: one of ``benchmarks.impls.IMPLS`` (matfuse, matfuse-cuda, matfuse-wgpu,
matfuse-gpu, matfuse-host, numpy, cupy, torch, torch-compile, octave). The
worker sets the implementation's environment (``MATFUSE_PROVIDER`` ...) before
anything imports matfuse or torch.

Two phases: *prepare* (imports, provider start-up, peer set-up) and *run*
(warm-up, then timed iterations). With ``--wait-go`` the worker prints
``READY`` after preparing and waits for a line on stdin, so the harness can
prepare the next implementation while the current one is timed.
``--max-seconds`` bounds the timed phase: after the warm-up, at most as many
iterations as fit (at least one). A JSON line with ``"partial": true`` follows
every timed iteration, so a run killed by a time limit keeps its times; the
last line is the result {"impl", "workload", "checksum", "times", ...}.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable

from benchmarks.impls import IMPLS, NOT_APPLICABLE, missing_reason
from benchmarks.workloads import Params, Workload, workload_by_name
from benchmarks import _octave_runner
from benchmarks._octave_runner import parse_checksum

READY = "READY"
CORES_VAR = "BENCH_CORES"   # cores this worker may use (set by the scheduler)
OUTPUT_KEEP = 4000     # characters of a run's output kept for text parity

__all__ = ["NOT_APPLICABLE", "READY", "parse_checksum", "run_impl", "time_calls"]


@dataclass
class Prepared:
    """A set-up implementation: call ``once`` repeatedly, then ``finish``."""

    once: Callable[[], Any]
    checksum: Callable[[Any], float | None]
    sync: Callable[[], None] = lambda: None
    after_warmup: Callable[[], None] = lambda: None
    finish: Callable[[Any, int], dict[str, Any]] = lambda result, iters: {}
    min_warmup: int = 0


def time_calls(fn: Callable[[], Any], iters: int, warmup: int,
               sync: Callable[[], None] = lambda: None,
               after_warmup: Callable[[], None] = lambda: None,
               max_seconds: float | None = None,
               on_iteration: Callable[[Any, list[float]], None] = lambda r, t: None,
               notes: list[str] | None = None) -> tuple[Any, list[float]]:
    """Warm-up calls, then timed calls (device synchronised). With
    ``max_seconds``, the timed calls are cut to what the last warm-up call
    says fits (at least one); a warm-up call slower than twice that bound is
    itself the one timing (a note in ``notes`` says so)."""
    result = None
    last = 0.0
    for _ in range(warmup):
        start = time.perf_counter()
        result = fn()
        sync()
        last = time.perf_counter() - start
    if max_seconds is not None and last > 2 * max_seconds:
        if notes is not None:
            notes.append(f"one call takes {last:.1f} s: timed once, by the warm-up call")
        on_iteration(result, [last])
        return result, [last]
    after_warmup()
    if max_seconds is not None and last > 0:
        iters = max(1, min(iters, int(max_seconds // last)))
    times: list[float] = []
    for _ in range(iters):
        start = time.perf_counter()
        result = fn()
        sync()
        times.append(time.perf_counter() - start)
        on_iteration(result, times)
    return result, times


# ------------------------------------------------------------------ matfuse
def prepare_matfuse(work: Workload, params: Params, gpu: bool) -> Prepared:
    import io

    import matfuse
    from matfuse.accelerate.facade import acceleration_state, ensure_provider
    from matfuse.accelerate.fusion.executor import STATS
    from matfuse.accelerate_api import fallback_counts, reset_fallback_counts

    out = io.StringIO()
    session = matfuse.Session(stdout=out)
    accel = ensure_provider()       # may raise MatlabError (FALLBACK=error)
    fusion_start: dict[str, int] = {}

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
        fusion_start.update(STATS.as_dict())

    def finish(text: str, iters: int) -> dict[str, Any]:
        telemetry = _per_iteration(accel.telemetry(), iters)
        fused = {k: v - fusion_start.get(k, 0) for k, v in STATS.as_dict().items()}
        # bytes the fused kernels read and wrote (matmul, fft... are not counted)
        telemetry["fused_bytes"] = (fused["bytes_read"] + fused["bytes_written"]) / max(iters, 1)
        telemetry["fused_kernels"] = fused["kernels"] / max(iters, 1)
        state = acceleration_state()
        return {"output": text[-OUTPUT_KEEP:], "telemetry": telemetry,
                "provider": state.description if state else accel.name,
                "fallbacks": fallback_counts()}

    return Prepared(once, parse_checksum, accel.synchronize, reset_counters, finish)


def _per_iteration(counters: dict[str, Any], iters: int) -> dict[str, Any]:
    """Counters of the timed iterations, divided by their number."""
    flat = {k: v / max(iters, 1) for k, v in counters.items()
            if isinstance(v, (int, float)) and k != "live_buffers"}
    flat["live_buffers"] = counters.get("live_buffers", 0)
    return flat


# ------------------------------------------------------------------ python peers
def prepare_xp(xp_name: str, work: Workload, params: Params) -> Prepared:
    peers = work.peers()
    xp = __import__(xp_name)
    sync: Callable[[], None] = lambda: None
    if xp_name == "cupy":
        xp.zeros(1).sum()           # create the context before timing
        sync = xp.cuda.Device().synchronize
    return Prepared(lambda: peers.run_xp(xp, **params), float, sync)


def prepare_torch(work: Workload, params: Params, compiled: bool) -> Prepared:
    if compiled and not work.torch_compile:
        raise _NotApplicable(f"{NOT_APPLICABLE}: the peer is a Python loop (nothing to compile)")
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda":
        torch.zeros(1, device=device).sum().item()   # create the context before timing
    peers = work.peers()
    note = ""
    if compiled:
        import torch._dynamo  # noqa: F401  (import cost in the prepare phase)
        import torch._inductor  # noqa: F401

        maker = getattr(peers, "make_torch_compiled", None)
        if maker is not None:
            fn = maker(torch, device, **params)
            note = getattr(peers, "TORCH_COMPILE_NOTE", "")
        else:
            fn = torch.compile(peers.make_torch(torch, device, **params))
    else:
        fn = peers.make_torch(torch, device, **params)
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    extra = {"device": device} | ({"note": note} if note else {})
    # the first calls of a compiled function compile
    return Prepared(fn, float, sync, finish=lambda r, i: dict(extra),
                    min_warmup=2 if compiled else 0)


class _NotApplicable(Exception):
    """A known gap of this implementation on this workload."""


# ------------------------------------------------------------------ entry points
def prepare_impl(impl: str, work: Workload, params: Params) -> Prepared:
    """Imports, provider start-up and peer set-up (no timed work)."""
    reason = missing_reason(impl)
    if reason is not None:
        raise _NotApplicable(reason)
    spec = IMPLS[impl]
    if spec.kind == "matfuse":
        return prepare_matfuse(work, params, spec.gpu_script)
    if spec.kind == "xp":
        return prepare_xp(impl, work, params)
    if spec.kind == "torch":
        return prepare_torch(work, params, impl == "torch-compile")
    raise _NotApplicable(f"unknown implementation {impl}")


def run_prepared(prep: Prepared, iters: int, warmup: int, max_seconds: float | None = None,
                 progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    def on_iteration(result: Any, times: list[float]) -> None:
        if progress is not None:
            progress({"partial": True, "checksum": prep.checksum(result), "times": list(times)})

    notes: list[str] = []
    result, times = time_calls(prep.once, iters, max(warmup, prep.min_warmup), prep.sync,
                               prep.after_warmup, max_seconds, on_iteration, notes)
    out = {"checksum": prep.checksum(result), "times": times}
    out.update(prep.finish(result, len(times)))
    if notes:       # counters were not reset: they include that first call
        out["note"] = "; ".join(filter(None, [out.get("note"), notes[0]]))
    return out


def run_impl(impl: str, workload: str, params: Params, iters: int, warmup: int,
             max_seconds: float | None = None) -> dict[str, Any]:
    """Run one implementation here; the result dict (``error`` on failure)."""
    from matfuse.errors import MatlabError

    work = workload_by_name(workload)
    try:
        if impl == "octave":
            result = _octave_runner.run_octave(work, params, iters, warmup)
        else:
            result = run_prepared(prepare_impl(impl, work, params), iters, warmup, max_seconds)
    except _NotApplicable as gap:
        result = {"error": str(gap)}
    except MatlabError as err:
        result = {"error": err.report()[-600:]}
    result.update({"impl": impl, "workload": workload, "params": params})
    return result


def _emit(obj: dict[str, Any]) -> None:
    print(json.dumps(obj), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("impl")
    parser.add_argument("workload")
    parser.add_argument("--params", default="{}")
    parser.add_argument("--iters", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="bound on the timed phase (iterations cut to fit, at least one)")
    parser.add_argument("--wait-go", action="store_true",
                        help="print READY after preparing, then wait for a line on stdin")
    args = parser.parse_args(argv)
    cores = os.environ.get(CORES_VAR)
    if cores and hasattr(os, "sched_setaffinity"):   # before numpy starts BLAS threads
        os.sched_setaffinity(0, {int(c) for c in cores.split(",")})
    spec = IMPLS.get(args.impl)
    if spec is not None:
        os.environ.update(spec.env)     # before matfuse/torch start
    params = json.loads(args.params)
    started = time.perf_counter()
    from matfuse.errors import MatlabError

    base = {"impl": args.impl, "workload": args.workload, "params": params}
    prep = None
    try:
        if args.impl != "octave":
            prep = prepare_impl(args.impl, workload_by_name(args.workload), params)
    except _NotApplicable as gap:
        _emit(base | {"error": str(gap)})
        return 1
    except MatlabError as err:
        _emit(base | {"error": err.report()[-600:]})
        return 1
    except Exception as err:   # a library failed to start (CUDA, wgpu): say what
        traceback.print_exc()
        _emit(base | {"error": f"{type(err).__name__}: {err}"[:600]})
        return 1
    prepare_s = time.perf_counter() - started
    if args.wait_go:
        print(READY, flush=True)
        words = sys.stdin.readline().split()
        if len(words) == 2 and hasattr(os, "sched_setaffinity"):
            # "go 0,1,2": prepared on other cores, timed on these
            os.sched_setaffinity(0, {int(c) for c in words[1].split(",")})
    started = time.perf_counter()
    try:
        if prep is None:
            result = _octave_runner.run_octave(workload_by_name(args.workload), params,
                                               args.iters, args.warmup)
        else:
            result = run_prepared(prep, args.iters, args.warmup, args.max_seconds,
                                  progress=lambda p: _emit(base | p))
    except MatlabError as err:
        result = {"error": err.report()[-600:]}
    except Exception as err:   # a peer's library failed (e.g. torch.compile): say what
        traceback.print_exc()
        result = {"error": f"{type(err).__name__}: {err}"[:600]}
    result.update(base | {"prepare_s": prepare_s, "run_s": time.perf_counter() - started})
    if hasattr(os, "sched_getaffinity"):
        result["cores"] = len(os.sched_getaffinity(0))
    _emit(result)
    return 0 if "error" not in result else 1


if __name__ == "__main__":
    sys.exit(main())
