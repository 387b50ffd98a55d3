"""``matfuse bench``: time a script run repeatedly in one session.

    matfuse bench FILE.m [--iters N] [--warmup N] [--define name=value ...]
                         [--provider NAME] [--json] [--quiet]

Each iteration clears the workspace, assigns the ``--define`` variables (so a
script's ``if ~exist('n', 'var'), n = ...; end`` defaults can be overridden)
and runs the script; the device is synchronised before the clock stops. The
report gives median/min/max seconds and the acceleration counters of the timed
iterations: the provider's telemetry (``accelerate_api.provider().telemetry()``)
and the host fallbacks (``accelerate_api.fallback_counts()``), since the
Session itself keeps no statistics.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import time
from typing import Any

from matfuse.errors import MatlabError

USAGE_ERROR = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="matfuse bench", description="Time a MATLAB script run repeatedly in one session.")
    parser.add_argument("file", metavar="FILE.m", help="the script to run")
    parser.add_argument("--iters", type=int, default=10, help="timed iterations (default 10)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed first runs (default 1)")
    parser.add_argument("--define", "-D", action="append", default=[], metavar="NAME=VALUE",
                        help="set a variable before each run (repeatable)")
    parser.add_argument("--provider", metavar="NAME",
                        help="acceleration provider: auto, inprocess, wgpu, cuda")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--quiet", action="store_true", help="do not echo the script's output")
    return parser


def parse_define(text: str) -> tuple[str, Any]:
    """``name=value``: numbers become doubles, ``true``/``false`` logicals,
    anything else a char row vector."""
    name, sep, raw = text.partition("=")
    name = name.strip()
    if not sep or not name.isidentifier():
        raise ValueError(f"--define expects NAME=VALUE, got '{text}'")
    raw = raw.strip()
    if raw.lower() in ("true", "false"):
        return name, raw.lower() == "true"
    try:
        return name, float(raw)
    except ValueError:
        return name, raw.strip("'\"")


def summarize(times: list[float]) -> dict[str, float]:
    return {"median": statistics.median(times), "min": min(times), "max": max(times),
            "mean": statistics.fmean(times)}


def _start_provider(name: str | None) -> Any:
    """The active provider, started with ``name`` when given (else from the
    environment); raises MatlabError for an unknown or unavailable one."""
    from matfuse.accelerate.facade import ensure_provider, initialize_acceleration_provider
    from matfuse.accelerate.options import AccelerateInitOptions

    from matfuse.cli.main import warn_on_fallback

    if name is None:
        return ensure_provider()
    provider = initialize_acceleration_provider(AccelerateInitOptions.from_env(provider=name))
    warn_on_fallback(name, provider)
    return provider


def run_bench(path: str, iters: int, warmup: int, defines: list[tuple[str, Any]],
              provider_name: str | None = None) -> dict[str, Any]:
    """Run the benchmark and return the report (raises MatlabError)."""
    from matfuse.accelerate.facade import acceleration_state
    from matfuse.accelerate_api import fallback_counts, reset_fallback_counts
    from matfuse.vm.session import Session

    accel = _start_provider(provider_name)
    out = io.StringIO()
    session = Session(stdout=out)

    def once() -> float:
        out.seek(0)
        out.truncate()
        session.eval("clear")
        for name, value in defines:
            session.set(name, value)
        start = time.perf_counter()
        session.run_file(path)
        accel.synchronize()
        return time.perf_counter() - start

    first = [once() for _ in range(warmup)]
    accel.reset_telemetry()
    reset_fallback_counts()
    times = [once() for _ in range(iters)]
    state = acceleration_state()
    report: dict[str, Any] = {
        "file": path, "iters": iters, "warmup": warmup,
        "defines": {name: value for name, value in defines},
        "provider": state.description if state is not None else accel.name,
        "times": times, "warmup_times": first, "telemetry": accel.telemetry(),
        "fallbacks": fallback_counts(), "output": out.getvalue()}
    if times:
        report.update(summarize(times))
    return report


def format_report(report: dict[str, Any]) -> str:
    lines = [f"bench {report['file']}: {report['iters']} iterations after "
             f"{report['warmup']} warm-up, provider {report['provider']}"]
    if report["defines"]:
        lines.append("  defines: " + ", ".join(
            f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
            for k, v in report["defines"].items()))
    if report["warmup_times"]:
        lines.append(f"  first run {report['warmup_times'][0]:.6f} s")
    if report["times"]:
        lines.append(f"  median {report['median']:.6f} s   min {report['min']:.6f} s   "
                     f"max {report['max']:.6f} s")
    iters = max(report["iters"], 1)
    counters = {k: v for k, v in report["telemetry"].items()
                if isinstance(v, (int, float)) and v and k != "live_buffers"}
    if counters:
        lines.append("  per iteration: " + ", ".join(
            f"{k} {v / iters:g}" for k, v in sorted(counters.items())))
    per_op = report["telemetry"].get("per_op") or {}
    if per_op:
        top = sorted(per_op.items(), key=lambda kv: -kv[1])[:8]
        lines.append("  device ops: " + ", ".join(f"{k} {v}" for k, v in top))
    if report["fallbacks"]:
        lines.append("  host fallbacks: " + ", ".join(
            f"{k} {v}" for k, v in sorted(report["fallbacks"].items())))
    return "\n".join(lines)


def bench_cli(argv: list[str], options: object = None) -> int:
    """``matfuse bench`` as a subcommand (it parses its own options)."""
    return bench_main(argv)


def bench_main(argv: list[str]) -> int:
    """Entry point of ``matfuse bench``; returns the exit status."""
    from matfuse.cli.report import report_error

    args = build_parser().parse_args(argv)
    if args.iters < 1 or args.warmup < 0:
        sys.stderr.write("matfuse bench: --iters must be >= 1 and --warmup >= 0\n")
        return USAGE_ERROR
    if not os.path.isfile(args.file):
        sys.stderr.write(f"matfuse bench: cannot open '{args.file}': no such file\n")
        return USAGE_ERROR
    try:
        defines = [parse_define(d) for d in args.define]
    except ValueError as why:
        sys.stderr.write(f"matfuse bench: {why}\n")
        return USAGE_ERROR
    try:
        report = run_bench(args.file, args.iters, args.warmup, defines, args.provider)
    except MatlabError as err:
        report_error(err)
        return 1
    if args.json:
        print(json.dumps(report))
        return 0
    if not args.quiet and report["output"]:
        sys.stdout.write(report["output"] if report["output"].endswith("\n")
                         else report["output"] + "\n")
    print(format_report(report))
    return 0
