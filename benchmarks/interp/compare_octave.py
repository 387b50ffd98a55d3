"""Interpreter idiom benchmarks: every script in benchmarks/interp/ (function
files are helpers, not run alone) under matfuse and GNU Octave on the same
machine, whole process each (start-up included), runs of the two taking
turns; prints wall and CPU medians, their ratios and whether both printed
the same output, and writes a markdown report.

    python benchmarks/interp/compare_octave.py [--repeat 3] [--only NAME ...]
        [--out docs/benchmarks/interp.md]

CPU time (user + system of the finished child) is reported next to wall
time: on a shared machine it moves far less with the load than wall time.
"""

from __future__ import annotations

import argparse
import compileall
import datetime
import math
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def timed(cmd: list[str], cwd: Path) -> tuple[float, float, str]:
    """(wall s, cpu s, stdout) of one run of ``cmd``; a failing run raises."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=900)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")
    return wall, cpu, done.stdout.strip()


def is_function_file(path: Path) -> bool:
    """Helpers (function files) are called by the benchmarks, not run alone."""
    for line in path.read_text().splitlines():
        text = line.strip()
        if text and not text.startswith("%"):
            return text.startswith("function")
    return False


def scripts(only: list[str] | None) -> list[Path]:
    found = sorted(p for p in HERE.glob("*.m") if not is_function_file(p))
    if only:
        found = [p for p in found if p.stem in only]
    return found


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


def octave_version(octave: str) -> str:
    done = subprocess.run([octave, "--version"], capture_output=True, text=True)
    first = done.stdout.splitlines()[0] if done.stdout else "GNU Octave"
    return first.strip()


class Row:
    def __init__(self, name: str, mf: list[tuple[float, float]], oc: list[tuple[float, float]],
                 same: str):
        self.name = name
        self.mf_wall = statistics.median(w for w, _ in mf)
        self.mf_cpu = statistics.median(c for _, c in mf)
        self.oc_wall = statistics.median(w for w, _ in oc)
        self.oc_cpu = statistics.median(c for _, c in oc)
        self.same = same

    @property
    def wall_ratio(self) -> float:
        return self.mf_wall / self.oc_wall

    @property
    def cpu_ratio(self) -> float:
        return self.mf_cpu / self.oc_cpu


def measure(script: Path, octave: str, repeat: int) -> Row:
    mf_cmd = [sys.executable, "-m", "matfuse", script.name]
    oc_cmd = [octave, "--norc", "-q", script.name]
    mf_runs, oc_runs = [], []
    mf_out = oc_out = ""
    for _ in range(repeat):   # taking turns: drift in the machine's load hits both
        wall, cpu, mf_out = timed(mf_cmd, HERE)
        mf_runs.append((wall, cpu))
        wall, cpu, oc_out = timed(oc_cmd, HERE)
        oc_runs.append((wall, cpu))
    same = "yes" if mf_out == oc_out else f"NO (`{mf_out!r}` vs `{oc_out!r}`)"
    return Row(script.stem, mf_runs, oc_runs, same)


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def startup(repeat: int) -> tuple[float, float]:
    runs = [timed([sys.executable, "-m", "matfuse", "-e", "x=1;"], HERE)[:2]
            for _ in range(repeat)]
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def report(rows: list[Row], args: argparse.Namespace, octave: str, start: tuple[float, float],
           load: tuple[str, str], command: str) -> str:
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    slower = [r.name for r in rows if r.cpu_ratio > 1.0]
    md = [
        "# Interpreter idioms: matfuse vs GNU Octave", "",
        f"- Date: {stamp}",
        f"- Machine: {machine()}; load average {load[0]} at start, {load[1]} at end "
        "(a shared machine: other jobs ran at the same time)",
        f"- Octave: {octave_version(octave)} (`octave-cli --norc -q SCRIPT`); matfuse: "
        "`python -m matfuse SCRIPT`, from `benchmarks/interp/`",
        f"- Command: `{command}`",
        f"- Each cell: the median of {args.repeat} whole-process runs (start-up included), "
        "matfuse and Octave runs taking turns. CPU = user + system seconds of the process; "
        "ratio = matfuse / Octave (below 1: matfuse faster).",
        "",
        "| idiom | matfuse wall (s) | Octave wall (s) | wall ratio | matfuse CPU (s) "
        "| Octave CPU (s) | CPU ratio | same output |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        md.append(f"| {r.name} | {r.mf_wall:.2f} | {r.oc_wall:.2f} | {r.wall_ratio:.2f} | "
                  f"{r.mf_cpu:.2f} | {r.oc_cpu:.2f} | {r.cpu_ratio:.2f} | {r.same} |")
    md += [
        "",
        f"- Geometric mean of matfuse/Octave: wall {geomean([r.wall_ratio for r in rows]):.2f}, "
        f"CPU {geomean([r.cpu_ratio for r in rows]):.2f} ({len(rows)} idioms).",
        f"- Idioms where matfuse used more CPU than Octave: "
        f"{', '.join(slower) if slower else 'none'}.",
        "- matfuse's bytecode is compiled before timing (`compileall`), as an installed "
        "package has it.",
        f"- matfuse start-up alone (`matfuse -e \"x=1;\"`): wall {start[0]:.2f} s, "
        f"CPU {start[1]:.2f} s (median of {args.repeat}).",
        "",
    ]
    return "\n".join(md)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", nargs="*", help="script names (no .m) to run")
    parser.add_argument("--out", type=Path, help="write the markdown report here")
    args = parser.parse_args()
    octave = shutil.which("octave-cli") or shutil.which("octave")
    if octave is None:
        print("GNU Octave (octave-cli) not found", file=sys.stderr)
        return 2
    # An installed package has its bytecode; a source checkout run with
    # PYTHONDONTWRITEBYTECODE would compile every module on every start.
    import matfuse

    compileall.compile_dir(str(Path(matfuse.__file__).parent), quiet=1)
    load_before = f"{os.getloadavg()[0]:.2f}"
    start = startup(args.repeat)
    rows = []
    for script in scripts(args.only):
        row = measure(script, octave, args.repeat)
        rows.append(row)
        print(f"{row.name:<26} matfuse {row.mf_wall:6.2f}s ({row.mf_cpu:5.2f} cpu)  "
              f"octave {row.oc_wall:6.2f}s ({row.oc_cpu:5.2f} cpu)  "
              f"ratio {row.wall_ratio:5.2f} / cpu {row.cpu_ratio:5.2f}  same: {row.same}",
              flush=True)
    print(f"geometric mean matfuse/octave: wall {geomean([r.wall_ratio for r in rows]):.2f}, "
          f"cpu {geomean([r.cpu_ratio for r in rows]):.2f}; start-up {start[0]:.2f}s")
    if args.out:
        command = "python benchmarks/interp/compare_octave.py " + " ".join(sys.argv[1:])
        text = report(rows, args, octave, start, (load_before, f"{os.getloadavg()[0]:.2f}"),
                      command.strip())
        args.out.parent.mkdir(parents=True, exist_ok=True)
        tmp = args.out.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
