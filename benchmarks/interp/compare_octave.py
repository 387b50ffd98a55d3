"""Interpreter benchmarks: each benchmarks/interp/*.m under matfuse and GNU
Octave in the same run; prints wall times (whole process, best of N) and
ratios, and checks both print the same result.

    python benchmarks/interp/compare_octave.py [--repeat 3] [--out docs/benchmarks/interp.md]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{cmd} failed:\n{done.stdout}\n{done.stderr}")
    return elapsed, done.stdout.strip()


_IN_PROCESS = (
    "import io, sys, time, matfuse\n"
    "s = matfuse.Session(stdout=io.StringIO())\n"
    "t = time.perf_counter(); s.run_file(sys.argv[1]); t = time.perf_counter() - t\n"
    "print(f'{t:.6f}')\n"
)


def in_process(script: Path, repeat: int) -> float:
    """matfuse time without process start-up (session already created)."""
    runs = []
    for _ in range(repeat):
        _, out = timed([sys.executable, "-c", _IN_PROCESS, str(script)])
        runs.append(float(out.splitlines()[-1]))
    return min(runs)


def best_of(cmd: list[str], repeat: int, env: dict[str, str] | None = None) -> tuple[float, str]:
    results = [timed(cmd, env) for _ in range(repeat)]
    return min(t for t, _ in results), results[0][1]


def is_function_file(path: Path) -> bool:
    """Helpers (function files) are called by the benchmarks, not run alone."""
    for line in path.read_text().splitlines():
        text = line.strip()
        if text and not text.startswith("%"):
            return text.startswith("function")
    return False


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, help="write a markdown report here")
    args = parser.parse_args()
    load_before = f"{os.getloadavg()[0]:.2f}"
    octave = shutil.which("octave")
    env = dict(os.environ, XDG_RUNTIME_DIR="/tmp")
    startup, _ = best_of([sys.executable, "-m", "matfuse", "-e", "x = 1;"], args.repeat)
    rows = []
    for script in sorted(p for p in HERE.glob("*.m") if not is_function_file(p)):
        mf_time, mf_out = best_of([sys.executable, "-m", "matfuse", str(script)], args.repeat)
        if octave:
            # Octave finds helper function files through the current folder.
            oc_cmd = [octave, "--no-gui", "-q", "--eval", f"cd('{HERE}'); run('{script.name}')"]
            oc_time, oc_out = best_of(oc_cmd, args.repeat, env)
        else:
            oc_time, oc_out = float("nan"), "(octave not found)"
        same = "yes" if mf_out == oc_out else f"NO ({mf_out!r} vs {oc_out!r})"
        run_time = in_process(script, args.repeat)
        rows.append((script.name, mf_time, run_time, oc_time, oc_time / mf_time, same))
    header = (f"{'benchmark':<16} {'matfuse s':>10} {'(no start)':>10} {'octave s':>9} "
              f"{'speedup':>8}  same output")
    lines = [header, "-" * len(header)]
    for name, mf, run, oc, ratio, same in rows:
        lines.append(f"{name:<16} {mf:>10.2f} {run:>10.2f} {oc:>9.2f} {ratio:>7.2f}x  {same}")
    lines.append(f"(matfuse process start-up alone: {startup:.2f} s; included above)")
    print("\n".join(lines))
    if args.out:
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        md = [
            "# Interpreter benchmarks (matfuse vs GNU Octave)", "",
            f"- Date: {stamp}",
            f"- Machine: {machine()}; load average at start {load_before}, at end "
            f"{os.getloadavg()[0]:.2f} (other jobs share this machine: compare ratios)",
            f"- Command: `python benchmarks/interp/compare_octave.py --repeat {args.repeat}"
            f" --out {args.out}`",
            "- Times: wall clock of the whole process (start-up included), best of "
            f"{args.repeat}; speedup = octave / matfuse.", "",
            "- matfuse (no start-up): the same script timed inside an already started"
            " Python process (`Session.run_file`).", "",
            "| benchmark | matfuse (s) | matfuse, no start-up (s) | octave (s) | speedup |"
            " speedup, no start-up | same output |",
            "|---|---:|---:|---:|---:|---:|---|",
        ]
        md += [f"| {n} | {mf:.2f} | {run:.2f} | {oc:.2f} | {r:.2f}x | {oc / run:.2f}x | {s} |"
               for n, mf, run, oc, r, s in rows]
        md += ["", f"matfuse start-up alone (`matfuse -e 'x = 1;'`): {startup:.2f} s.", "",
               "Notes:",
               "- matfuse's start-up (Python, NumPy and the builtin registry) is included in"
               " the first column; the no-start-up column is the script alone.",
               "- Octave's time includes its own start-up (about 0.1-0.2 s).", ""]
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("\n".join(md), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
