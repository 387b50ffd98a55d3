"""Time two source trees against each other, the way a user runs scripts.

    python -m benchmarks.redesign.compare --before /path/to/old --after . \
        --provider wgpu [--sizes tiny|cpu|gpu] [--repeats 3] [--iters 5]

For the three benchmark workloads (``benchmarks/elementwise``,
``montecarlo``, ``pca``; explicit ``gpuArray`` scripts, ``gpu = 1``) and a
few corpus scripts (plain scripts, auto-offload forced), each tree runs
``--repeats`` fresh processes (``_child.py`` with the tree's ``src`` on
``PYTHONPATH``, the two trees interleaved). Each process reports

* cold: the script's first run after start-up (what a user running a
  script once sees; start-up itself is not counted);
* warm: the median of ``--iters`` re-runs in that process after
  ``--warmup`` more (what the benchmark harness measures);
* start-up + cold: the process's start-up (importing matfuse, creating the
  session and the provider) plus the cold run, since work one tree does at
  start-up the other may do in the first device operation.

Both trees are byte-compiled first, and one untimed process per tree and
script fills the on-disk kernel caches, so neither tree pays a first-ever
compilation the other does not.

The table gives medians over processes, after/before ratios and whether the
two trees printed the same output on the cold run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).resolve().parent / "_child.py"
WORKLOADS = ("elementwise", "montecarlo", "pca")
CORPUS = ("elementwise_plain.m", "heat_stencil.m", "kmeans_step.m", "mc_gbm_seeded_single.m")
# Auto-offload forced with every threshold at 1 (as the corpus test runs them).
FORCED_OFFLOAD = {"MATFUSE_AUTO_OFFLOAD": "force", "MATFUSE_THRESHOLD_ELEMENTWISE": "1",
                  "MATFUSE_THRESHOLD_REDUCTION": "1", "MATFUSE_THRESHOLD_CONSTRUCTION": "1",
                  "MATFUSE_THRESHOLD_MATMUL": "1"}


@dataclass
class Case:
    """One script to time: its path, parameters and environment."""

    name: str
    script: Path
    params: dict[str, float]
    env: dict[str, str]


def cases(sizes: str, workloads: tuple[str, ...], corpus: tuple[str, ...]) -> list[Case]:
    sys.path.insert(0, str(REPO))
    from benchmarks.workloads import workload_by_name

    out = []
    for name in workloads:
        work = workload_by_name(name)
        params = dict(work.sizes.get(sizes, work.sizes["tiny"])[0])
        params["gpu"] = 1.0
        out.append(Case(name, work.script, params, {"MATFUSE_AUTO_OFFLOAD": "0"}))
    for script in corpus:
        path = REPO / "benchmarks" / "corpus" / script
        out.append(Case(f"corpus/{script}", path, {}, dict(FORCED_OFFLOAD)))
    return out


def run_child(tree: Path, case: Case, provider: str, warmup: int, iters: int,
              timeout: float) -> dict:
    env = dict(os.environ)
    env.update(case.env)
    # the tree's sources first; other entries (installed dependencies) stay,
    # any other matfuse checkout's src is dropped
    kept = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
            if p and not (Path(p) / "matfuse").is_dir()]
    env["PYTHONPATH"] = os.pathsep.join([str(tree / "src"), *kept])
    env["MATFUSE_PROVIDER"] = provider
    env["MATFUSE_FALLBACK"] = "error"
    try:
        proc = subprocess.run([sys.executable, str(CHILD), str(case.script),
                               json.dumps(case.params), str(warmup), str(iters)], env=env,
                              capture_output=True, text=True, timeout=timeout,
                              cwd=str(case.script.parent))
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        return {"error": " | ".join(tail) or f"exit {proc.returncode}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def summarise(runs: list[dict]) -> dict:
    ok = [r for r in runs if "error" not in r]
    return {
        "cold": _median([r["cold"] for r in ok]),
        "first": _median([r["startup"] + r["cold"] for r in ok]),
        "warm": _median([statistics.median(r["warm"]) for r in ok if r["warm"]]),
        "output": ok[0]["output"] if ok else None,
        "error": next((r["error"] for r in runs if "error" in r), None),
    }


def _ms(v: float | None) -> str:
    return "-" if v is None else f"{v * 1e3:.1f}"


def _ratio(after: float | None, before: float | None) -> str:
    return "-" if not after or not before else f"{after / before:.2f}"


def table(rows: list[tuple[str, dict, dict]], provider: str) -> str:
    lines = [f"provider: {provider}; times in ms (medians); ratio = after / before", "",
             "| script | cold before | cold after | ratio | start-up + cold before | after | ratio "
             "| warm before | warm after | ratio | same output |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, before, after in rows:
        same = "-" if before["output"] is None or after["output"] is None else \
            ("yes" if before["output"] == after["output"] else "NO")
        lines.append(f"| {name} | {_ms(before['cold'])} | {_ms(after['cold'])} | "
                     f"{_ratio(after['cold'], before['cold'])} | {_ms(before['first'])} | "
                     f"{_ms(after['first'])} | {_ratio(after['first'], before['first'])} | "
                     f"{_ms(before['warm'])} | "
                     f"{_ms(after['warm'])} | {_ratio(after['warm'], before['warm'])} | {same} |")
    for name, before, after in rows:
        for label, s in (("before", before), ("after", after)):
            if s["error"]:
                lines.append(f"\n{name} ({label}) failed: {s['error']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", required=True, type=Path, help="source tree (holds src/matfuse)")
    ap.add_argument("--after", required=True, type=Path, help="source tree (holds src/matfuse)")
    ap.add_argument("--provider", required=True, choices=("wgpu", "cuda", "inprocess"))
    ap.add_argument("--sizes", default="tiny", help="workload size set: tiny | cpu | gpu")
    ap.add_argument("--workloads", default=",".join(WORKLOADS),
                    help="comma-separated benchmark workloads ('' for none)")
    ap.add_argument("--corpus", default=",".join(CORPUS),
                    help="comma-separated corpus scripts ('' for none)")
    ap.add_argument("--repeats", type=int, default=3, help="fresh processes per tree and script")
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--iters", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per process")
    ap.add_argument("--json", type=Path, help="also write the raw results here")
    args = ap.parse_args(argv)
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    for label, tree in trees.items():
        if not (tree / "src" / "matfuse").is_dir():
            ap.error(f"--{label} {tree}: no src/matfuse there")
    corpus = tuple(s for s in args.corpus.split(",") if s)
    workloads = tuple(s for s in args.workloads.split(",") if s)
    for tree in trees.values():
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "src")], check=True)
    rows = []
    raw = {}
    for case in cases(args.sizes, workloads, corpus):
        runs: dict[str, list[dict]] = {"before": [], "after": []}
        for label in ("before", "after"):   # untimed: fills the disk caches
            run_child(trees[label], case, args.provider, 0, 1, args.timeout)
        for _ in range(args.repeats):
            for label in ("before", "after"):   # interleaved: drift hits both
                runs[label].append(run_child(trees[label], case, args.provider, args.warmup,
                                             args.iters, args.timeout))
        raw[case.name] = runs
        rows.append((case.name, summarise(runs["before"]), summarise(runs["after"])))
        print(f"done: {case.name}", file=sys.stderr, flush=True)
    print(table(rows, args.provider))
    if args.json:
        args.json.write_text(json.dumps(raw, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
