"""Run the corpus of MATLAB scripts written in many styles on a provider and
check each against the in-process reference run.

Every ``benchmarks/corpus/*.m`` declares in its header comment::

    % budget: uploads<=4 downloads<=2     (transfers allowed with offload forced)
    % rtol: 1e-4                          (relative tolerance of printed numbers)

A script runs in its own ``matfuse`` process (``--stats-json``), once on the
reference (``--provider inprocess``, auto-offload off) and once on the provider
under test with auto-offload forced and the planner's thresholds at 1, so every
operation is offered to the device. A script passes when its printed output
equals the reference's (numbers within ``rtol``, other words exactly), it made no
host fallback and its uploads and downloads are within budget.

    python -m benchmarks.corpus.run_corpus --provider wgpu [--json out.json] [--define n=1e6]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

CORPUS = Path(__file__).resolve().parent
SRC = CORPUS.parents[1] / "src"
FORCED = {"MATFUSE_AUTO_OFFLOAD": "force", "MATFUSE_THRESHOLD_ELEMENTWISE": "1",
          "MATFUSE_THRESHOLD_REDUCTION": "1", "MATFUSE_THRESHOLD_CONSTRUCTION": "1",
          "MATFUSE_THRESHOLD_MATMUL": "1"}
_NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^[-+]?(Inf|NaN)$")


@dataclass
class Budget:
    uploads: int
    downloads: int
    rtol: float


@dataclass
class Run:
    """One script's process on one provider."""
    stdout: str
    stderr: str
    returncode: int
    seconds: float
    stats: dict = field(default_factory=dict)

    @property
    def fallbacks(self) -> dict[str, int]:
        return dict(self.stats.get("fallbacks_by_op") or {})

    def telemetry(self, key: str) -> int:
        return int((self.stats.get("telemetry") or {}).get(key) or 0)


@dataclass
class Verdict:
    script: str
    same_output: bool
    fallbacks: dict[str, int]
    uploads: int
    downloads: int
    upload_bytes: int
    download_bytes: int
    budget: dict
    seconds_reference: float
    seconds_device: float
    error: str = ""

    @property
    def within_budget(self) -> bool:
        return (self.uploads <= self.budget["uploads"]
                and self.downloads <= self.budget["downloads"])

    @property
    def ok(self) -> bool:
        return self.same_output and not self.fallbacks and self.within_budget and not self.error


def scripts() -> list[Path]:
    return sorted(CORPUS.glob("*.m"))


def budget_of(path: Path) -> Budget:
    text = path.read_text(encoding="utf-8")
    up = re.search(r"^%\s*budget:.*uploads<=(\d+)", text, re.M)
    down = re.search(r"^%\s*budget:.*downloads<=(\d+)", text, re.M)
    rtol = re.search(r"^%\s*rtol:\s*(\S+)", text, re.M)
    if not (up and down and rtol):
        raise ValueError(f"{path.name}: header needs '% budget: uploads<=N downloads<=N' and '% rtol: X'")
    return Budget(int(up.group(1)), int(down.group(1)), float(rtol.group(1)))


def run_script(path: Path, provider: str, forced: bool, defines: dict[str, str],
               timeout: float = 600.0) -> Run:
    """``path`` in a fresh ``matfuse`` process; ``defines`` are set before it runs."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(FORCED if forced else {"MATFUSE_AUTO_OFFLOAD": "0"})
    pre = "".join(f"{k} = {v}; " for k, v in defines.items())
    code = f"{pre}run('{path}');"
    with tempfile.TemporaryDirectory() as tmp:
        stats_file = Path(tmp) / "stats.json"
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "matfuse", "--provider", provider,
                               "--stats-json", str(stats_file), "-e", code],
                              cwd=str(CORPUS), env=env, capture_output=True, text=True,
                              timeout=timeout)
        seconds = time.perf_counter() - start
        stats = json.loads(stats_file.read_text()) if stats_file.exists() else {}
    return Run(proc.stdout, proc.stderr, proc.returncode, seconds, stats)


def same_output(want: str, got: str, rtol: float) -> bool:
    """Word by word: numbers within ``rtol`` (NaN equals NaN), other words equal."""
    a, b = want.split(), got.split()
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if _NUMBER.match(x) and _NUMBER.match(y):
            fx, fy = float(x), float(y)
            if math.isnan(fx) or math.isnan(fy):
                if not (math.isnan(fx) and math.isnan(fy)):
                    return False
            elif fx != fy and not math.isclose(fx, fy, rel_tol=rtol, abs_tol=rtol * 1e-300):
                return False
        elif x != y:
            return False
    return True


def check(path: Path, provider: str, defines: dict[str, str]) -> Verdict:
    budget = budget_of(path)
    ref = run_script(path, "inprocess", False, defines)
    dev = run_script(path, provider, True, defines)
    error = ""
    if ref.returncode != 0:
        error = "reference run failed: " + ref.stderr.strip()[-300:]
    elif dev.returncode != 0:
        error = "device run failed: " + dev.stderr.strip()[-300:]
    return Verdict(path.name, same_output(ref.stdout, dev.stdout, budget.rtol) and not error,
                   dev.fallbacks, dev.telemetry("uploads"), dev.telemetry("downloads"),
                   dev.telemetry("upload_bytes"), dev.telemetry("download_bytes"),
                   asdict(budget), ref.seconds, dev.seconds, error)


def check_all(provider: str, defines: dict[str, str], jobs: int = 2,
              only: list[str] | None = None) -> list[Verdict]:
    paths = [p for p in scripts() if not only or p.stem in only]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda p: check(p, provider, defines), paths))


GAPS = CORPUS / "known_gaps.json"


def gaps_of(verdicts: list[Verdict]) -> dict[str, dict]:
    """What each failing script still lacks (the CI test's ratchet): a script
    listed here may do better, never worse."""
    gaps = {}
    for v in verdicts:
        if v.ok:
            continue
        gaps[v.script] = {"same_output": v.same_output, "fallbacks": sum(v.fallbacks.values()),
                          "uploads": max(v.uploads, v.budget["uploads"]),
                          "downloads": max(v.downloads, v.budget["downloads"]),
                          "error": bool(v.error)}
    return gaps


def regressions(verdict: Verdict, gaps: dict[str, dict]) -> list[str]:
    """How ``verdict`` is worse than the recorded gap (empty: no worse)."""
    gap = gaps.get(verdict.script)
    if gap is None:
        return [] if verdict.ok else [f"was ok, now: {verdict}"]
    worse = []
    if gap["same_output"] and not verdict.same_output:
        worse.append("result differs from the in-process run")
    if not gap["error"] and verdict.error:
        worse.append(verdict.error)
    if sum(verdict.fallbacks.values()) > gap["fallbacks"]:
        worse.append(f"host fallbacks {verdict.fallbacks} > {gap['fallbacks']}")
    if verdict.uploads > gap["uploads"]:
        worse.append(f"uploads {verdict.uploads} > {gap['uploads']}")
    if verdict.downloads > gap["downloads"]:
        worse.append(f"downloads {verdict.downloads} > {gap['downloads']}")
    return worse


def table(verdicts: list[Verdict]) -> str:
    rows = ["| script | same result | host fallbacks | uploads (budget) | downloads (budget) | ok |",
            "|---|---|---|---:|---:|---|"]
    for v in verdicts:
        fb = ", ".join(f"{k}={n}" for k, n in sorted(v.fallbacks.items())) or "-"
        rows.append(f"| {v.script} | {'yes' if v.same_output else 'NO'} | {fb} | "
                    f"{v.uploads} ({v.budget['uploads']}) | {v.downloads} ({v.budget['downloads']}) | "
                    f"{'yes' if v.ok else 'no'} |")
    ok = sum(v.ok for v in verdicts)
    rows.append(f"\n{ok} of {len(verdicts)} scripts pass (same result, no host fallback, within budget).")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--provider", default="wgpu")
    ap.add_argument("--define", "-D", action="append", default=[], help="NAME=VALUE set before each script")
    ap.add_argument("--only", default="", help="comma list of script names (no .m)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="write the verdicts as JSON here")
    ap.add_argument("--write-gaps", action="store_true",
                    help=f"record today's gaps in {GAPS.name} (the CI ratchet)")
    args = ap.parse_args(argv)
    defines = dict(d.split("=", 1) for d in args.define)
    only = [s for s in args.only.split(",") if s]
    verdicts = check_all(args.provider, defines, args.jobs, only)
    print(table(verdicts))
    for v in verdicts:
        if v.error:
            print(f"{v.script}: {v.error}", file=sys.stderr)
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(v) for v in verdicts], indent=1))
    if args.write_gaps:
        GAPS.write_text(json.dumps(gaps_of(verdicts), indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
