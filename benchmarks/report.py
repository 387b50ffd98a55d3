"""Render benchmark results as the markdown report (docs/benchmarks/RESULTS.md).

    python -m benchmarks.report docs/benchmarks/cpu/results.json \\
        docs/benchmarks/interp/results.json > docs/benchmarks/RESULTS.md

Each results.json (written by ``python -m benchmarks.run``) becomes one
section: machine, date, versions, the command, warm-time and ratio tables,
cold wall times, parity and guard status, matfuse's acceleration telemetry
and links to the plots. Plot links are relative to ``--relative-to`` (the
folder the report is written into; default docs/benchmarks).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

NOT_APPLICABLE = "not applicable"
TELEMETRY_KEYS = ("dispatches", "uploads", "upload_bytes", "downloads", "download_bytes")


def _impls(rows: list[dict[str, Any]]) -> list[str]:
    return list(dict.fromkeys(r["impl"] for row in rows for r in row["results"]))


def _result(row: dict[str, Any], impl: str) -> dict[str, Any] | None:
    return next((r for r in row["results"] if r["impl"] == impl), None)


def _cell(res: dict[str, Any] | None, key: str = "median") -> str:
    if res is None:
        return ""
    if key in res:
        return _seconds(res[key])
    error = str(res.get("error", ""))
    return "n/a" if error.startswith(NOT_APPLICABLE) else "error"


def _seconds(value: float) -> str:
    return f"{value:.3g}" if value < 100 else f"{value:.0f}"


TEXT_COLUMNS = {"workload", "size", "impl", "provider", "parity"}


def _table(header: list[str], body: list[list[str]]) -> list[str]:
    """A markdown table: text columns left-aligned, numbers right-aligned."""
    aligns = ["---" if h in TEXT_COLUMNS else "---:" for h in header]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(aligns) + "|"]
    lines += ["| " + " | ".join(cells) + " |" for cells in body]
    return lines


def _versions(env: dict[str, Any]) -> str:
    parts = [f"{name} {version or 'absent'}" for name, version in env.get("versions", {}).items()]
    return ", ".join(parts)


def render_suite(data: dict[str, Any], json_path: Path, relative_to: Path) -> list[str]:
    rows = data["rows"]
    env = data.get("environment", {})
    impls = _impls(rows)
    peers = [i for i in impls if i != "matfuse"]
    gpus = "; ".join(env.get("gpus") or []) or "none"
    n_parity = sum(1 for r in rows if r.get("parity_ok"))
    guards = [r for r in rows if "guard" in r]
    failed = sorted({impl for r in rows for impl in r.get("failed", [])})
    lines = [f"## Suite `{data['suite']}`", "",
             f"- Date: {env.get('date', '?')}",
             f"- Machine: {env.get('cpu', '?')}, {env.get('cores', '?')} cores, "
             f"{env.get('os', '?')}; GPU: {gpus}",
             f"- Versions: {_versions(env)}",
             f"- Command: `{data.get('command', '?')}`",
             f"- Timing: {data.get('iters', '?')} timed iterations after "
             f"{data.get('warmup', '?')} warm-up, each implementation in its own process "
             "(in-process median; device synchronised)",
             f"- Parity: {n_parity}/{len(rows)} rows agree within tolerance"
             + ("" if not failed else f"; failed to run: {', '.join(failed)}")]
    for row in guards:
        lines.append(f"- Guard ({row['workload']} {row['size']}): "
                     f"{'ok' if row['guard_ok'] else 'FAILED'}, {row['guard']}")
    lines += ["", "### Warm time (median seconds)", ""]
    body = [[r["workload"], r["size"] or "-"] + [_cell(_result(r, i)) for i in impls]
            + ["ok" if r.get("parity_ok") else "FAIL"] for r in rows]
    lines += _table(["workload", "size"] + impls + ["parity"], body)
    if "matfuse" in impls and peers:
        lines += ["", "### matfuse / peer (time ratio; below 1: matfuse is faster)", ""]
        body = []
        for r in rows:
            base = (_result(r, "matfuse") or {}).get("median")
            cells = []
            for peer in peers:
                other = (_result(r, peer) or {}).get("median")
                cells.append(f"{base / other:.2f}" if base and other else "")
            body.append([r["workload"], r["size"] or "-"] + cells)
        lines += _table(["workload", "size"] + [f"matfuse/{p}" for p in peers], body)
    lines += ["", "### Cold wall time (seconds, whole process including start-up)", ""]
    body = [[r["workload"], r["size"] or "-"] + [_cell(_result(r, i), "cold_wall") for i in impls]
            for r in rows]
    lines += _table(["workload", "size"] + impls, body)
    lines += _telemetry(rows)
    lines += _notes(rows)
    plots = data.get("plots") or []
    if plots:
        base = os.path.relpath(json_path.parent.resolve(), relative_to.resolve())
        lines += ["", "### Plots", ""]
        lines += [f"![{p[:-4]}]({Path(base, p).as_posix()})" for p in plots]
    return lines + [""]


def _telemetry(rows: list[dict[str, Any]]) -> list[str]:
    body = []
    providers = set()
    for r in rows:
        for res in r["results"]:
            tel = res.get("telemetry")
            if not res["impl"].startswith("matfuse") or tel is None:
                continue
            fallbacks = sum((res.get("fallbacks") or {}).values())
            counts = [tel.get(k, 0) for k in TELEMETRY_KEYS] + [fallbacks]
            providers.add(str(res.get("provider", "")))
            if any(counts):
                body.append([r["workload"], r["size"] or "-", res["impl"],
                             str(res.get("provider", "")).split(":")[0]]
                            + [f"{c:g}" for c in counts])
    heading = ["", "### matfuse acceleration telemetry (per timed iteration)", ""]
    if not providers:
        return []
    used = "Provider: " + "; ".join(sorted(providers)) + "."
    if not body:
        return heading + [used + " No device work and no host fallbacks were recorded."]
    return heading + [used, ""] + _table(
        ["workload", "size", "impl", "provider", *TELEMETRY_KEYS, "fallbacks"], body)


def _notes(rows: list[dict[str, Any]]) -> list[str]:
    notes = []
    for r in rows:
        for res in r["results"]:
            if "error" in res:
                first = str(res["error"]).strip().splitlines() or [""]
                if first[0].startswith(NOT_APPLICABLE):   # a gap of every size: say it once
                    notes.append(f"- {r['workload']}, {res['impl']}: {first[0][:200]}")
                else:
                    notes.append(f"- {r['workload']} {r['size'] or '-'}, {res['impl']}: "
                                 f"{' '.join(first[-3:])[:200]}")
        if not r.get("parity_ok"):
            notes.append(f"- {r['workload']} {r['size'] or '-'}: parity FAILED ({r['parity']})")
    notes = list(dict.fromkeys(notes))
    return ["", "### Notes", ""] + notes if notes else []


def render(paths: list[Path], relative_to: Path, command: str,
           notes: list[str] | None = None) -> str:
    lines = ["# matfuse benchmark results", "",
             "Generated by `" + command + "` from the JSON that "
             "`python -m benchmarks.run` wrote; do not edit by hand.",
             "Workloads, peers and sizes: `benchmarks/` (one folder per workload).", ""]
    if notes:
        lines += [f"Note: {note}" for note in notes] + [""]
    for path in paths:
        data = json.loads(path.read_text())
        lines += render_suite(data, path, relative_to)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", type=Path, help="results.json files")
    parser.add_argument("--relative-to", type=Path, default=Path("docs/benchmarks"),
                        help="folder the report is written into (for plot links)")
    parser.add_argument("--note", action="append", default=[],
                        help="a line for the report's preamble (repeatable)")
    args = parser.parse_args(argv)
    missing = [p for p in args.results if not p.is_file()]
    if missing:
        print(f"benchmarks.report: no such file: {missing[0]}", file=sys.stderr)
        return 2
    # the command as typed, with notes elided (they are printed below it)
    command = " ".join(["python -m benchmarks.report", *map(str, args.results)]
                       + (["--note ..."] if args.note else []))
    sys.stdout.write(render(args.results, args.relative_to, command, args.note) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
