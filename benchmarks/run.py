"""Benchmark harness: every implementation in its own process, parity-checked.

    python -m benchmarks.run --suite cpu            # small sizes, CPU peers (CI-friendly)
    python -m benchmarks.run --suite gpu --out DIR  # full sizes on the GPU machine

For each workload and size it runs each implementation (``_worker.py``),
records warm in-process times (median/min/max) and the cold wall time of the
process, checks that all checksums agree within the workload's tolerance,
prints a ratio table matfuse/peer, and writes ``results.json`` plus PNG plots
(matplotlib, when installed) into ``--out``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# workload -> (relative checksum tolerance, sizes per suite)
WORKLOADS: dict[str, dict[str, Any]] = {
    "elementwise": {"tol": 2e-3, "cpu": [{"n": 1e5}, {"n": 1e6}],
                    "gpu": [{"n": 1e6}, {"n": 1e7}, {"n": 1e8}]},
    "montecarlo": {"tol": 2e-2, "cpu": [{"M": 1e4, "T": 32}, {"M": 1e5, "T": 32}],
                   "gpu": [{"M": 1e5, "T": 256}, {"M": 1e6, "T": 256}]},
    "imagenorm": {"tol": 2e-2, "cpu": [{"B": 2, "H": 128, "W": 128}, {"B": 4, "H": 256, "W": 256}],
                  "gpu": [{"B": 4, "H": 1024, "W": 1024}, {"B": 16, "H": 2160, "W": 3840}]},
}

SUITE_IMPLS = {
    "cpu": ["matfuse", "numpy", "octave"],
    "gpu": ["matfuse-gpu", "matfuse", "numpy", "torch", "torch-compile", "cupy"],
}


def available(impl: str) -> bool:
    if impl == "octave":
        return shutil.which("octave") is not None
    module = {"torch": "torch", "torch-compile": "torch", "cupy": "cupy", "numpy": "numpy"}.get(impl)
    if module is None:
        return True
    return importlib.util.find_spec(module) is not None


def run_one(impl: str, workload: str, params: dict[str, Any], iters: int, warmup: int,
            timeout: float) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "benchmarks._worker", impl, workload,
           "--params", json.dumps(params), "--iters", str(iters), "--warmup", str(warmup)]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "src"), env.get("PYTHONPATH", "")])
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"impl": impl, "error": f"timeout after {timeout}s"}
    wall = time.perf_counter() - start
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        return {"impl": impl, "error": (proc.stderr or proc.stdout)[-600:], "cold_wall": wall}
    result = json.loads(lines[-1])
    result["cold_wall"] = wall
    times = result.get("times") or []
    if times:
        result["median"] = statistics.median(times)
        result["min"] = min(times)
        result["max"] = max(times)
    return result


def parity(results: list[dict[str, Any]], tol: float) -> tuple[bool, str]:
    sums = [(r["impl"], r.get("checksum")) for r in results if r.get("checksum") is not None]
    if len(sums) < 2:
        return True, "fewer than two checksums"
    ref_impl, ref = sums[0]
    worst = 0.0
    for _impl, value in sums[1:]:
        worst = max(worst, abs(value - ref) / max(abs(ref), 1e-30))
    return worst <= tol, f"max relative checksum difference {worst:.2e} (tolerance {tol:.0e}, reference {ref_impl})"


def ratio_table(rows: list[dict[str, Any]]) -> str:
    lines = ["| workload | size | impl | median s | min s | cold wall s | matfuse/impl |",
             "|---|---|---|---|---|---|---|"]
    for row in rows:
        base = next((r for r in row["results"] if r["impl"].startswith("matfuse") and "median" in r), None)
        for r in row["results"]:
            if "median" not in r:
                lines.append(f"| {row['workload']} | {row['size']} | {r['impl']} | error | | | |")
                continue
            ratio = base["median"] / r["median"] if base else float("nan")
            lines.append(f"| {row['workload']} | {row['size']} | {r['impl']} | {r['median']:.6f} | "
                         f"{r['min']:.6f} | {r.get('cold_wall', 0):.2f} | {ratio:.2f} |")
    return "\n".join(lines)


def plot(rows: list[dict[str, Any]], out: Path) -> None:
    if importlib.util.find_spec("matplotlib") is None:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for workload in {r["workload"] for r in rows}:
        wrows = [r for r in rows if r["workload"] == workload]
        fig, ax = plt.subplots(figsize=(6, 4))
        impls = sorted({res["impl"] for r in wrows for res in r["results"] if "median" in res})
        for impl in impls:
            xs, ys = [], []
            for i, r in enumerate(wrows):
                res = next((x for x in r["results"] if x["impl"] == impl and "median" in x), None)
                if res:
                    xs.append(i)
                    ys.append(res["median"])
            ax.plot(xs, ys, marker="o", label=impl)
        ax.set_xticks(range(len(wrows)))
        ax.set_xticklabels([r["size"] for r in wrows], rotation=15, fontsize=7)
        ax.set_yscale("log")
        ax.set_ylabel("median seconds (warm)")
        ax.set_title(workload)
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(out / f"{workload}.png", dpi=100)
        plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=sorted(SUITE_IMPLS), default="cpu")
    parser.add_argument("--workloads", default=",".join(WORKLOADS))
    parser.add_argument("--impls", default="")
    parser.add_argument("--iters", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--out", default="benchmarks/out")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    impls = args.impls.split(",") if args.impls else SUITE_IMPLS[args.suite]
    impls = [i for i in impls if available(i)]
    rows = []
    all_ok = True
    for workload in args.workloads.split(","):
        spec = WORKLOADS[workload]
        for params in spec[args.suite]:
            size = ",".join(f"{k}={v:g}" for k, v in params.items())
            results = [run_one(i, workload, params, args.iters, args.warmup, args.timeout) for i in impls]
            ok, note = parity(results, spec["tol"])
            all_ok = all_ok and ok
            rows.append({"workload": workload, "size": size, "params": params,
                         "results": results, "parity_ok": ok, "parity": note})
            print(f"{workload} {size}: parity {'ok' if ok else 'FAILED'} ({note})", flush=True)
    table = ratio_table(rows)
    print(table)
    (out / "results.json").write_text(json.dumps({"suite": args.suite, "rows": rows}, indent=1))
    (out / "table.md").write_text(table + "\n")
    plot(rows, out)
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
