"""Render benchmark results as the markdown report (docs/benchmarks/RESULTS.md).

    python -m benchmarks.report docs/benchmarks/cpu/results.json \\
        docs/benchmarks/interp/results.json > docs/benchmarks/RESULTS.md

Each results.json (written by ``python -m benchmarks.run``) becomes one
section: machine, date, versions, the command, warm-time and ratio tables
(each matfuse configuration against each peer), cold wall times, parity and
guard status, matfuse's acceleration telemetry against the workload's ideal
bytes, notes, and the plots. ``--plots-dir docs/benchmarks/plots`` redraws the
plots from the JSON into that folder; links are relative to
``--relative-to`` (the folder the report is written into; default
docs/benchmarks).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from benchmarks.impls import NOT_APPLICABLE, NOT_INSTALLED
from benchmarks.plots import plot_all
from benchmarks.report_tables import (impls_of as _impls, ratio_section, result_of as _result,
                                      status_cell, table as _table, telemetry_section)
from benchmarks.workloads import WORKLOADS


def _cell(res: dict[str, Any] | None, key: str = "median") -> str:
    if res is None:
        return ""
    if key in res:
        return _seconds(res[key])
    return status_cell(res)


def _seconds(value: float) -> str:
    return f"{value:.3g}" if value < 100 else f"{value:.0f}"


def _ideal_bytes(rows: list[dict[str, Any]]) -> dict[tuple[str, str], float | None]:
    ideal = {}
    for row in rows:
        work = WORKLOADS.get(row["workload"])
        ideal[(row["workload"], row["size"])] = (work.ideal_bytes(row.get("params") or {})
                                                 if work is not None else None)
    return ideal


def _limits(data: dict[str, Any]) -> str:
    parts = []
    if data.get("max_seconds"):
        parts.append(f"timed phase cut to fit {data['max_seconds']:g} s (fewer iterations "
                     "for slow implementations, at least one)")
    if data.get("cpu_workers"):
        parts.append(f"host-only implementations in {data['cpu_workers']} concurrent "
                     "processes on cores the GPU-lane processes do not use")
    if data.get("budget"):
        parts.append(f"suite budget {data['budget']:g} s")
    if data.get("complete") is False:
        parts.append("INCOMPLETE run (cut short; rows without results are missing)")
    return "; ".join(parts) or "none"


def _versions(env: dict[str, Any]) -> str:
    parts = [f"{name} {version or 'absent'}" for name, version in env.get("versions", {}).items()]
    return ", ".join(parts)


def render_suite(data: dict[str, Any], json_path: Path, relative_to: Path,
                 plots_dir: Path | None = None) -> list[str]:
    rows = data["rows"]
    env = data.get("environment", {})
    impls = _impls(rows)
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
             f"- Limits: {_limits(data)}",
             f"- Parity: {n_parity}/{len(rows)} rows agree within tolerance"
             + ("" if not failed else f"; failed to run: {', '.join(failed)}")]
    for row in guards:
        lines.append(f"- Guard ({row['workload']} {row['size']}): "
                     f"{'ok' if row['guard_ok'] else 'FAILED'}, {row['guard']}")
    lines += ["", "### Warm time (median seconds)", ""]
    body = [[r["workload"], r["size"] or "-"] + [_cell(_result(r, i)) for i in impls]
            + ["ok" if r.get("parity_ok") else "FAIL"] for r in rows]
    lines += _table(["workload", "size"] + impls + ["parity"], body)
    lines += ratio_section(rows)
    lines += ["", "### Cold wall time (seconds: the process's start-up and run, "
              "its wait for its turn left out)", ""]
    body = [[r["workload"], r["size"] or "-"] + [_cell(_result(r, i), "cold_wall") for i in impls]
            for r in rows]
    lines += _table(["workload", "size"] + impls, body)
    lines += telemetry_section(rows, _ideal_bytes(rows))
    lines += _notes(rows)
    plots = data.get("plots") or []
    folder = json_path.parent
    if plots_dir is not None:   # redrawn from the JSON, named after it
        stem = json_path.parent.name if json_path.stem == "results" else json_path.stem
        plots_dir.mkdir(parents=True, exist_ok=True)
        plots, folder = plot_all(rows, plots_dir, prefix=f"{stem}_"), plots_dir
    if plots:
        base = os.path.relpath(folder.resolve(), relative_to.resolve())
        lines += ["", "### Plots", ""]
        lines += [f"![{p[:-4]}]({Path(base, p).as_posix()})" for p in plots]
    return lines + [""]


def _notes(rows: list[dict[str, Any]]) -> list[str]:
    notes = []
    for r in rows:
        for res in r["results"]:
            if res.get("note"):
                notes.append(f"- {r['workload']}, {res['impl']}: {res['note']}")
            if "error" in res:
                first = str(res["error"]).strip().splitlines() or [""]
                if first[0].startswith(NOT_INSTALLED):      # one note per implementation
                    notes.append(f"- {res['impl']}: {first[0][:200]}")
                elif first[0].startswith(NOT_APPLICABLE):   # a gap of every size: say it once
                    notes.append(f"- {r['workload']}, {res['impl']}: {first[0][:200]}")
                else:
                    notes.append(f"- {r['workload']} {r['size'] or '-'}, {res['impl']}: "
                                 f"{' '.join(first[-3:])[:200]}")
        if not r.get("parity_ok"):
            notes.append(f"- {r['workload']} {r['size'] or '-'}: parity FAILED ({r['parity']})")
    notes = list(dict.fromkeys(notes))
    return ["", "### Notes", ""] + notes if notes else []


def render(paths: list[Path], relative_to: Path, command: str,
           notes: list[str] | None = None, plots_dir: Path | None = None) -> str:
    lines = ["# matfuse benchmark results", "",
             "Generated by `" + command + "` from the JSON that "
             "`python -m benchmarks.run` wrote; do not edit by hand.",
             "Workloads, peers and sizes: `benchmarks/` (one folder per workload).", ""]
    if notes:
        lines += [f"Note: {note}" for note in notes] + [""]
    for path in paths:
        data = json.loads(path.read_text())
        lines += render_suite(data, path, relative_to, plots_dir)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", type=Path, help="results.json files")
    parser.add_argument("--relative-to", type=Path, default=Path("docs/benchmarks"),
                        help="folder the report is written into (for plot links)")
    parser.add_argument("--note", action="append", default=[],
                        help="a line for the report's preamble (repeatable)")
    parser.add_argument("--plots-dir", type=Path, default=None,
                        help="redraw the plots from the JSON into this folder "
                             "(e.g. docs/benchmarks/plots) and link those")
    args = parser.parse_args(argv)
    missing = [p for p in args.results if not p.is_file()]
    if missing:
        print(f"benchmarks.report: no such file: {missing[0]}", file=sys.stderr)
        return 2
    # the command as typed, with notes elided (they are printed below it)
    command = " ".join(["python -m benchmarks.report", *map(str, args.results)]
                       + (["--note ..."] if args.note else []))
    if args.plots_dir is not None:
        command += f" --plots-dir {args.plots_dir}"
    sys.stdout.write(render(args.results, args.relative_to, command, args.note,
                            args.plots_dir) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
