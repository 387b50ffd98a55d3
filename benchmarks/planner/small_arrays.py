"""Planner overhead on small-array programs: the golden scripts (and the
smallmixed workload) run with auto-offload off, on in auto mode, and forced
on; the goal is at most 10% slower than off. Writes a markdown report
(benchmarks/out/planner_small_arrays.md by default; docs/benchmarks/planner.md
quotes it by hand, since that file also holds the GPU sections).

    python benchmarks/planner/small_arrays.py [--rounds 5] [--out benchmarks/out/planner_small_arrays.md]

Modes: ``off`` (MATFUSE_AUTO_OFFLOAD=0), ``auto`` (the default: on a CPU-only
machine it waits for a large array, then turns off; on a GPU it decides
every call that has a large array), ``force`` (the planner active on the
active provider even when it is not a GPU: every call is checked against the
default thresholds). Each round runs every program once per mode, the modes
interleaved; each program's time is its best round (the least disturbed
by other load), the total is the sum of those.
"""

from __future__ import annotations

import argparse
import datetime
import io
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

MODES = ("off", "auto", "force")


def programs() -> list[Path]:
    from tests.golden.test_golden import golden_programs

    found = [p for p in golden_programs() if "gpu" not in p.parts]
    small = ROOT / "benchmarks" / "smallmixed" / "smallmixed.m"
    return found + ([small] if small.exists() else [])


def run_program(path: Path) -> None:
    from matfuse.errors import MatlabError
    from matfuse.vm.session import Session

    session = Session(stdout=io.StringIO(), stderr=io.StringIO())
    cwd = os.getcwd()
    os.chdir(path.parent)
    try:
        session.run_file(str(path))
    except MatlabError:
        pass  # goldens with .err files end in an error on purpose
    finally:
        os.chdir(cwd)


def set_mode(mode: str) -> str:
    from matfuse.accelerate.options import AccelerateInitOptions
    from matfuse.accelerate.planner import offload

    offload.reset()
    env = {"MATFUSE_AUTO_OFFLOAD": {"off": "0", "auto": "1", "force": "force"}[mode]}
    env.update({k: v for k, v in os.environ.items() if k.startswith("MATFUSE_THRESHOLD")})
    return offload.install(AccelerateInitOptions.from_env(env))


def time_programs(paths: list[Path], mode: str) -> dict[str, float]:
    times = {}
    for path in paths:
        set_mode(mode)
        start = time.perf_counter()
        run_program(path)
        times[path.name] = time.perf_counter() - start
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "out" / "planner_small_arrays.md"))
    ns = parser.parse_args()

    from matfuse.accelerate.facade import initialize_acceleration_provider
    from matfuse.runtime.registry import load_all

    load_all()
    p = initialize_acceleration_provider()   # start-up is not part of the measurement
    paths = programs()
    for mode in MODES:                       # warm-up: imports, call-site caches
        time_programs(paths, mode)
    rounds: dict[str, list[dict[str, float]]] = {m: [] for m in MODES}
    for _ in range(ns.rounds):
        for mode in MODES:
            rounds[mode].append(time_programs(paths, mode))
    per_program = {m: {name: min(r[name] for r in rounds[m]) for name in rounds[m][0]}
                   for m in MODES}
    totals = {m: sum(per_program[m].values()) for m in MODES}
    text = report(p, paths, totals, per_program, ns.rounds)
    Path(ns.out).parent.mkdir(parents=True, exist_ok=True)
    Path(ns.out).write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    return 0


def report(p, paths, totals, per_program, rounds) -> str:
    from matfuse.accelerate.planner.offload import STATE

    off = totals["off"]
    lines = [
        "# Planner overhead on small arrays",
        "",
        f"Date: {datetime.date.today().isoformat()}  ",
        f"Device: {p.name} ({p.device_info()}); host {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}  ",
        "Command: `python benchmarks/planner/small_arrays.py "
        f"--rounds {rounds}`  ",
        f"Programs: {len(paths)} (tests/golden without gpu/, plus benchmarks/smallmixed)",
        "",
        "Goal: auto-offload on is at most 10% slower than off on programs whose",
        "arrays are all small (nothing should be offloaded there).",
        "",
        "| mode | total (sum of best rounds) | vs off |",
        "|---|---:|---:|",
    ]
    for mode in MODES:
        lines.append(f"| {mode} | {totals[mode] * 1e3:.1f} ms | {100 * (totals[mode] / off - 1):+.1f}% |")
    slowest = sorted(per_program["off"], key=lambda n: -per_program["off"][n])[:8]
    lines += ["", "Slowest programs (best round, ms):", "",
              "| program | off | auto | force |", "|---|---:|---:|---:|"]
    for name in slowest:
        lines.append(f"| {name} | " + " | ".join(f"{per_program[m][name] * 1e3:.2f}" for m in MODES) + " |")
    lines += ["", f"Last mode's planner state: {STATE.mode} ({STATE.note}).", "",
              "Reading: on a host without a GPU, `auto` turns itself off at the first",
              "builtin call (hooks set to None: one check per call afterwards), so",
              "off/auto differences there are timing noise. `force` runs the planner",
              "on every call with the default thresholds (nothing is large enough to",
              "move). On a GPU host `auto` equals `force` with the real provider.",
              "Timings on a shared machine vary by about 10% between runs.", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
