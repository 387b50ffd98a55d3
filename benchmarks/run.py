"""Benchmark harness: every implementation in its own process, parity-checked.

    python -m benchmarks.run --suite cpu                  # small sizes, host peers (CI)
    python -m benchmarks.run --suite gpu --out DIR        # full sizes on the GPU machine
    python -m benchmarks.run --suite interp               # interpreter: matfuse vs Octave
    python -m benchmarks.report DIR/results.json > docs/benchmarks/RESULTS.md

For each workload and size it runs each implementation (``_worker.py``) in a
fresh process, records warm in-process times (median/min/max, device
synchronised) and the cold wall time of the whole process, checks that all
checksums agree within the workload's tolerance (the whole output, for the
interpreter suite), checks guards (e.g. automatic offload must not lose on
small arrays), prints a ratio table matfuse/peer and writes ``results.json``
plus PNG plots into ``--out``. Exit status 1 when parity or a guard fails.
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

from benchmarks._worker import NOT_APPLICABLE
from benchmarks.environment import describe_environment
from benchmarks.plots import plot_all
from benchmarks.workloads import SUITES, WORKLOADS, Params, Workload, suite_workloads

ROOT = Path(__file__).resolve().parent.parent
PEER_MODULES = {"torch": "torch", "torch-compile": "torch", "cupy": "cupy", "numpy": "numpy"}


def available(impl: str) -> bool:
    if impl == "octave":
        return shutil.which("octave") is not None
    module = PEER_MODULES.get(impl)
    return module is None or importlib.util.find_spec(module) is not None


def size_label(params: Params) -> str:
    return ",".join(f"{k}={v:g}" for k, v in params.items())


def _summarise(result: dict[str, Any]) -> dict[str, Any]:
    times = result.get("times") or []
    if times and "error" not in result:
        result["median"] = statistics.median(times)
        result["min"] = min(times)
        result["max"] = max(times)
    return result


def run_one(impl: str, workload: str, params: Params, iters: int, warmup: int,
            timeout: float) -> dict[str, Any]:
    """One implementation in a fresh process; adds the cold wall time."""
    cmd = [sys.executable, "-m", "benchmarks._worker", impl, workload,
           "--params", json.dumps(params), "--iters", str(iters), "--warmup", str(warmup)]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), str(ROOT / "src"),
                                                    env.get("PYTHONPATH", "")) if p)
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"impl": impl, "error": f"timeout after {timeout:g} s"}
    wall = time.perf_counter() - start
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        return {"impl": impl, "error": (proc.stderr or proc.stdout)[-600:], "cold_wall": wall}
    result = json.loads(lines[-1])
    result["cold_wall"] = wall
    return _summarise(result)


def run_inline(impl: str, workload: str, params: Params, iters: int,
               warmup: int) -> dict[str, Any]:
    """One implementation in this process (tests; no cold wall time)."""
    from benchmarks._worker import run_impl

    return _summarise(run_impl(impl, workload, params, iters, warmup))


def check_parity(work: Workload, params: Params,
                 results: list[dict[str, Any]]) -> tuple[bool, str]:
    """Compare every result with the reference (NumPy where it ran, else the
    first); records ``parity_rel`` / ``parity_ok`` on each result."""
    ran = [r for r in results if "error" not in r]
    if work.parity == "text":
        outputs = [r for r in ran if r.get("output") is not None]
        if len(outputs) < 2:
            return True, "fewer than two outputs"
        ref = outputs[0]
        for r in outputs[1:]:
            r["parity_ok"] = r["output"].strip() == ref["output"].strip()
        bad = [r["impl"] for r in outputs[1:] if not r["parity_ok"]]
        return not bad, (f"output differs: {', '.join(bad)} vs {ref['impl']}" if bad
                         else f"identical output (reference {ref['impl']})")
    missing = [r["impl"] for r in ran if r.get("checksum") is None]
    sums = [r for r in ran if r.get("checksum") is not None]
    if len(sums) < 2:
        return not missing, "fewer than two checksums"
    ref = next((r for r in sums if r["impl"] == "numpy"), sums[0])
    tol = work.tolerance(params)
    worst = 0.0
    for r in sums:
        rel = abs(r["checksum"] - ref["checksum"]) / max(abs(ref["checksum"]), 1e-300)
        r["parity_rel"] = rel
        r["parity_ok"] = rel <= tol
        worst = max(worst, rel)
    note = (f"max relative checksum difference {worst:.1e} (tolerance {tol:.1e}, "
            f"reference {ref['impl']})")
    if missing:
        note += f"; no checksum from {', '.join(missing)}"
    return worst <= tol and not missing, note


def failures(results: list[dict[str, Any]]) -> list[str]:
    """Implementations that failed (known gaps, "not applicable", are not failures)."""
    return [r["impl"] for r in results
            if "error" in r and not str(r["error"]).startswith(NOT_APPLICABLE)]


def check_guard(work: Workload, results: list[dict[str, Any]]) -> tuple[bool, str] | None:
    if work.guard is None:
        return None
    impl, baseline, factor = work.guard
    times = {r["impl"]: r.get("median") for r in results}
    if times.get(impl) is None or times.get(baseline) is None:
        return None
    ratio = times[impl] / times[baseline]
    ok = ratio <= factor
    return ok, f"{impl}/{baseline} = {ratio:.2f} (must be <= {factor:g})"


def ratio_table(rows: list[dict[str, Any]]) -> str:
    lines = ["| workload | size | impl | median s | min s | cold wall s | matfuse/impl | parity |",
             "|---|---|---|---:|---:|---:|---:|---|"]
    for row in rows:
        base = next((r for r in row["results"] if r["impl"] == "matfuse" and "median" in r),
                    None)
        for r in row["results"]:
            cold = f"{r['cold_wall']:.2f}" if "cold_wall" in r else ""
            if "median" not in r:
                reason = str(r.get("error", "")).strip().splitlines()
                status = "n/a" if reason and reason[0].startswith(NOT_APPLICABLE) else "error"
                lines.append(f"| {row['workload']} | {row['size'] or '-'} | {r['impl']} | {status} "
                             f"| | {cold} | | {reason[0][:60] if reason else ''} |")
                continue
            ratio = f"{base['median'] / r['median']:.2f}" if base else ""
            parity = {True: "ok", False: "FAIL"}.get(r.get("parity_ok"), "ref")
            lines.append(f"| {row['workload']} | {row['size'] or '-'} | {r['impl']} | "
                         f"{r['median']:.6f} | {r['min']:.6f} | {cold} | {ratio} | {parity} |")
    return "\n".join(lines)


def merge_rows(old: dict[str, Any], rows: list[dict[str, Any]], command: str,
               ok: bool) -> tuple[list[dict[str, Any]], str, bool]:
    """Earlier rows of the same results.json, replaced where re-run."""
    fresh = {(r["workload"], r["size"]) for r in rows}
    kept = [r for r in old.get("rows", []) if (r["workload"], r["size"]) not in fresh]
    order = {name: i for i, name in enumerate(WORKLOADS)}
    merged = sorted(kept + rows, key=lambda r: (order.get(r["workload"], len(order)),
                                                r["workload"]))
    ok = ok and all(r.get("parity_ok") and not r.get("failed") and r.get("guard_ok", True)
                    for r in kept)
    return merged, f"{old.get('command', '?')}; {command}", ok


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=sorted(SUITES), default="cpu")
    parser.add_argument("--workloads", default="", help="comma-separated (default: the suite's)")
    parser.add_argument("--impls", default="", help="comma-separated (default: the suite's)")
    parser.add_argument("--sizes", default="", help="size set: tiny | cpu | gpu (default: suite's)")
    parser.add_argument("--iters", type=int, help="timed iterations (default: the suite's)")
    parser.add_argument("--warmup", type=int, help="warm-up iterations (default: the suite's)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per process")
    parser.add_argument("--inline", action="store_true",
                        help="run python implementations in this process (tests)")
    parser.add_argument("--out", default="", help="output folder (default benchmarks/out/SUITE)")
    parser.add_argument("--append", action="store_true",
                        help="merge into an existing results.json in --out (runs in chunks)")
    args = parser.parse_args(argv)
    suite = SUITES[args.suite]
    out = Path(args.out or f"benchmarks/out/{suite.name}")
    out.mkdir(parents=True, exist_ok=True)
    iters = suite.iters if args.iters is None else args.iters
    warmup = suite.warmup if args.warmup is None else args.warmup
    size_set = args.sizes or suite.size_set
    impls = [i for i in (args.impls.split(",") if args.impls else suite.impls) if available(i)]
    workloads = suite_workloads(suite)
    names = args.workloads.split(",") if args.workloads else list(workloads)
    rows = []
    all_ok = True
    for name in names:
        work = workloads[name]
        for params in work.sizes.get(size_set, work.sizes.get(suite.size_set, [])):
            results = []
            for impl in impls:
                # matfuse-host needs its own process: it configures matfuse at start-up
                if args.inline and impl not in ("octave", "matfuse-host"):
                    results.append(run_inline(impl, name, params, iters, warmup))
                else:
                    results.append(run_one(impl, name, params, iters, warmup, args.timeout))
            ok, note = check_parity(work, params, results)
            guard = check_guard(work, results)
            failed = failures(results)
            all_ok = all_ok and ok and not failed and (guard is None or guard[0])
            row = {"workload": name, "size": size_label(params), "params": params,
                   "tolerance": work.tolerance(params) if work.parity == "checksum" else None,
                   "results": results, "parity_ok": ok, "parity": note}
            if guard is not None:
                row["guard_ok"], row["guard"] = guard
            row["failed"] = failed
            rows.append(row)
            guard_note = f"; guard {'ok' if guard[0] else 'FAILED'}: {guard[1]}" if guard else ""
            fail_note = f"; FAILED to run: {', '.join(failed)}" if failed else ""
            print(f"{name} {row['size'] or '-'}: parity {'ok' if ok else 'FAILED'} ({note})"
                  f"{guard_note}{fail_note}", flush=True)
            # Timings as they come, so a run cut short by a time limit keeps them.
            for r in results:
                if "median" in r:
                    print(f"  {r['impl']}: median {r['median']:.6f} s, min {r['min']:.6f} s", flush=True)
            (out / "partial.json").write_text(json.dumps(rows, indent=1))
    command = "python -m benchmarks.run " + " ".join(argv)
    if args.append and (out / "results.json").is_file():
        rows, command, all_ok = merge_rows(json.loads((out / "results.json").read_text()),
                                           rows, command, all_ok)
    table = ratio_table(rows)
    print(table)
    plots = plot_all(rows, out)
    data = {"suite": suite.name, "size_set": size_set, "iters": iters, "warmup": warmup,
            "command": command,
            "inline": args.inline, "environment": describe_environment(),
            "ok": all_ok, "plots": plots, "rows": rows}
    (out / "results.json").write_text(json.dumps(data, indent=1))
    (out / "table.md").write_text(table + "\n")
    print(f"wrote {out / 'results.json'}" + (f" and {len(plots)} plots" if plots else ""))
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
