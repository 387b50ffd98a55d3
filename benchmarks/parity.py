"""Checks on a row of results: checksum parity, guards, failures; the console table."""

from __future__ import annotations

import statistics
from typing import Any

from benchmarks.impls import NOT_APPLICABLE
from benchmarks.scheduler import SKIPPED
from benchmarks.workloads import WORKLOADS, Params, Workload


def size_label(params: Params) -> str:
    return ",".join(f"{k}={v:g}" for k, v in params.items())


def summarise(result: dict[str, Any]) -> dict[str, Any]:
    """Adds median/min/max of the timed iterations (when it ran)."""
    times = result.get("times") or []
    if times and "error" not in result:
        result["median"] = statistics.median(times)
        result["min"] = min(times)
        result["max"] = max(times)
    return result


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


def is_gap(error: Any) -> bool:
    """A known gap ("not applicable", "not installed") or a budget skip: not a failure."""
    text = str(error)
    return text.startswith(NOT_APPLICABLE) or text.startswith(SKIPPED)


def failures(results: list[dict[str, Any]]) -> list[str]:
    """Implementations that failed (known gaps and budget skips are not failures)."""
    return [r["impl"] for r in results if "error" in r and not is_gap(r["error"])]


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
                status = "n/a" if reason and is_gap(reason[0]) else "error"
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
