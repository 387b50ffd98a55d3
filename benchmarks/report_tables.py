"""Tables of the benchmark report that compare implementations: time ratios of
each matfuse configuration against each peer, and matfuse's device telemetry
(kernel dispatches, bytes moved) against the workload's ideal bytes."""

from __future__ import annotations

from typing import Any

from benchmarks.impls import MATFUSE_IMPLS, NOT_APPLICABLE

TEXT_COLUMNS = {"workload", "size", "impl", "config", "provider", "parity"}
# matfuse configurations, in report order (matfuse-gpu: older runs)
MATFUSE_ORDER = (*MATFUSE_IMPLS, "matfuse-gpu")


def table(header: list[str], body: list[list[str]]) -> list[str]:
    """A markdown table: text columns left-aligned, numbers right-aligned."""
    aligns = ["---" if h in TEXT_COLUMNS else "---:" for h in header]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(aligns) + "|"]
    lines += ["| " + " | ".join(cells) + " |" for cells in body]
    return lines


def impls_of(rows: list[dict[str, Any]]) -> list[str]:
    return list(dict.fromkeys(r["impl"] for row in rows for r in row["results"]))


def result_of(row: dict[str, Any], impl: str) -> dict[str, Any] | None:
    return next((r for r in row["results"] if r["impl"] == impl), None)


def median_of(row: dict[str, Any], impl: str) -> float | None:
    return (result_of(row, impl) or {}).get("median")


def status_cell(res: dict[str, Any] | None) -> str:
    """Why a result has no time: n/a (known gap), skipped (budget) or error."""
    if res is None:
        return ""
    error = str(res.get("error", ""))
    if error.startswith(NOT_APPLICABLE):
        return "n/a"
    return "skipped" if error.startswith("skipped") else "error"


def ratio_section(rows: list[dict[str, Any]]) -> list[str]:
    """One line per (row, matfuse configuration): its median over each peer's."""
    impls = impls_of(rows)
    ours = [i for i in MATFUSE_ORDER if i in impls]
    peers = [i for i in impls if i not in ours]
    if not ours or not peers:
        return []
    body = []
    for row in rows:
        for impl in ours:
            mine = median_of(row, impl)
            if mine is None:
                continue
            cells = []
            for peer in peers:
                other = median_of(row, peer)
                cells.append(f"{mine / other:.2f}" if other else "")
            body.append([row["workload"], row["size"] or "-", impl] + cells)
    heading = ["", "### matfuse / peer (time ratio; below 1: matfuse is faster)", "",
               "Each cell: the matfuse configuration's median divided by the peer's "
               "(`matfuse` = plain script with automatic offload, `matfuse-cuda`/`matfuse-wgpu` "
               "= explicit gpuArray on that provider).", ""]
    return heading + table(["workload", "size", "config"] + [f"matfuse/{p}" for p in peers],
                           body)


def _bytes(value: float | None) -> str:
    if value is None:
        return ""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value:.0f} B"


def telemetry_section(rows: list[dict[str, Any]],
                      ideal: dict[tuple[str, str], float | None]) -> list[str]:
    """Per matfuse result: dispatches, transfers and fused-kernel bytes per timed
    iteration, against the ideal bytes the workload declares."""
    body = []
    providers = set()
    for row in rows:
        best = ideal.get((row["workload"], row["size"]))
        for res in row["results"]:
            tel = res.get("telemetry")
            if not res["impl"].startswith("matfuse") or tel is None:
                continue
            providers.add(str(res.get("provider", "")))
            transfer = tel.get("upload_bytes", 0) + tel.get("download_bytes", 0)
            moved = transfer + tel.get("fused_bytes", 0)
            fallbacks = sum((res.get("fallbacks") or {}).values())
            if not (tel.get("dispatches") or moved or fallbacks):
                continue
            ratio = f"{moved / best:.2g}" if best else ""
            body.append([row["workload"], row["size"] or "-", res["impl"],
                         str(res.get("provider", "")).split(":")[0],
                         f"{tel.get('dispatches', 0):g}", f"{tel.get('fused_kernels', 0):g}",
                         f"{tel.get('uploads', 0):g}/{tel.get('downloads', 0):g}",
                         _bytes(transfer), _bytes(tel.get("fused_bytes")), _bytes(best), ratio,
                         f"{fallbacks:g}"])
    if not providers:
        return []
    heading = ["", "### matfuse acceleration telemetry (per timed iteration)", ""]
    used = "Provider: " + "; ".join(sorted(p for p in providers if p)) + "."
    if not body:
        return heading + [used + " No device work and no host fallbacks were recorded."]
    note = ("`fused bytes`: bytes the fused kernels read and wrote (matmul, fft and other "
            "library kernels are not counted); `ideal`: the traffic of an ideal fused GPU "
            "run as the workload declares it (`ideal_bytes` in its peers.py); "
            "`moved/ideal` counts transfers plus fused bytes.")
    return heading + [used, "", note, ""] + table(
        ["workload", "size", "impl", "provider", "dispatches", "fused kernels",
         "uploads/downloads", "transfer bytes", "fused bytes", "ideal bytes", "moved/ideal",
         "fallbacks"], body)
