"""Benchmark harness: every implementation in its own process, parity-checked.

    python -m benchmarks.run --suite cpu                  # small sizes, host peers (CI)
    python -m benchmarks.run --suite gpu --out DIR        # the full GPU-machine run
    python -m benchmarks.run --suite interp               # interpreter: matfuse vs Octave
    python -m benchmarks.report DIR/results.json > docs/benchmarks/RESULTS.md

For each workload and size it runs each implementation (``_worker.py``) in a
fresh process (``scheduler.py``: a serial GPU lane, host-only baselines in
parallel on cores of their own), records warm in-process times
(median/min/max, device synchronised) and the cold time of the process,
checks that all checksums agree within the workload's tolerance (the whole
output, for the interpreter suite), checks guards (e.g. automatic offload
must not lose on small arrays), prints each row as it completes and rewrites
``results.json`` after every result (``"complete": false`` until the end), so a
run cut short keeps its data. Exit status 1 when parity or a guard fails or
an implementation fails to run.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.environment import describe_environment
from benchmarks.impls import IMPLS, NOT_INSTALLED, missing_reason
from benchmarks.parity import (check_guard, check_parity, failures, merge_rows, ratio_table,
                               size_label, summarise)
from benchmarks.plots import plot_all
from benchmarks.scheduler import CoreSplit, Job, Scheduler, WorkerProcess
from benchmarks.workloads import SUITES, Params, Workload, suite_workloads

__all__ = ["check_guard", "check_parity", "failures", "main", "merge_rows", "ratio_table",
           "run_inline", "run_one", "size_label"]


def run_one(impl: str, workload: str, params: Params, iters: int, warmup: int,
            timeout: float, max_seconds: float | None = None) -> dict[str, Any]:
    """One implementation in a fresh process (with its cold time)."""
    reason = missing_reason(impl)
    if reason is not None:
        return {"impl": impl, "error": reason}
    worker = WorkerProcess(Job(0, impl, workload, params, iters, warmup, timeout,
                               max_seconds), [])
    worker.ready.wait(timeout=timeout)
    worker.go()
    return summarise(worker.result(timeout))


def run_inline(impl: str, workload: str, params: Params, iters: int,
               warmup: int) -> dict[str, Any]:
    """One implementation in this process (tests; no cold time)."""
    from benchmarks._worker import run_impl

    return summarise(run_impl(impl, workload, params, iters, warmup))


class Collector:
    """Rows of results as they come; rewrites results.json after each one."""

    def __init__(self, out: Path, header: dict[str, Any],
                 rows: list[tuple[str, Workload, Params]], impls: list[str],
                 earlier: dict[str, Any] | None = None):
        self.out = out
        self.header = header
        self.earlier = earlier      # --append: the results.json this run merges into
        self.impls = impls
        self.rows = [{"workload": name, "size": size_label(params), "params": params,
                      "tolerance": work.tolerance(params) if work.parity == "checksum" else None,
                      "results": [], "parity_ok": None, "parity": "incomplete", "failed": []}
                     for name, work, params in rows]
        self.works = [work for _name, work, _params in rows]
        self.all_ok = True
        self._lock = threading.RLock()     # CPU-lane threads report concurrently
        self.announced: set[str] = set()
        self.started = time.monotonic()

    def add(self, row_index: int, result: dict[str, Any]) -> None:
        with self._lock:
            self._add(row_index, result)

    def _add(self, row_index: int, result: dict[str, Any]) -> None:
        result = summarise(result)
        row = self.rows[row_index]
        row["results"].append(result)
        row["results"].sort(key=lambda r: self.impls.index(r["impl"])
                            if r["impl"] in self.impls else len(self.impls))
        error = str(result.get("error", "")).strip()
        timing = (f"median {result['median']:.6f} s ({len(result['times'])} iters)"
                  if "median" in result else (error.splitlines() or ["error"])[0][:100])
        if not error.startswith(NOT_INSTALLED) or result["impl"] not in self.announced:
            elapsed = time.monotonic() - self.started
            print(f"  [{elapsed:5.0f} s] [{row['workload']} {row['size']}] {result['impl']}: "
                  f"{timing}", flush=True)
        if error.startswith(NOT_INSTALLED):    # said once per implementation
            self.announced.add(result["impl"])
        if len(row["results"]) == len(self.impls):
            self._finish_row(row_index)
        self.write(complete=False)

    def _finish_row(self, index: int) -> None:
        row, work = self.rows[index], self.works[index]
        ok, note = check_parity(work, row["params"], row["results"])
        guard = check_guard(work, row["results"])
        row["failed"] = failures(row["results"])
        row["parity_ok"], row["parity"] = ok, note
        if guard is not None:
            row["guard_ok"], row["guard"] = guard
        self.all_ok = self.all_ok and ok and not row["failed"] and (guard is None or guard[0])
        guard_note = f"; guard {'ok' if guard[0] else 'FAILED'}: {guard[1]}" if guard else ""
        fail_note = f"; FAILED to run: {', '.join(row['failed'])}" if row["failed"] else ""
        print(f"{row['workload']} {row['size'] or '-'}: parity {'ok' if ok else 'FAILED'} "
              f"({note}){guard_note}{fail_note}", flush=True)

    def write(self, complete: bool, plots: list[str] | None = None) -> None:
        with self._lock:
            self._write(complete, plots)

    def merged(self) -> tuple[list[dict[str, Any]], str, bool]:
        """Rows with results (merged into the earlier run's), command, ok."""
        done = [r for r in self.rows if r["results"]]
        if self.earlier is None:
            return done, self.header["command"], self.all_ok
        return merge_rows(self.earlier, done, self.header["command"], self.all_ok)

    def _write(self, complete: bool, plots: list[str] | None) -> None:
        rows, command, ok = self.merged()
        data = self.header | {"command": command, "complete": complete, "ok": ok and complete,
                              "plots": plots or [], "rows": rows}
        tmp = self.out / "results.json.tmp"
        tmp.write_text(json.dumps(data, indent=1))
        tmp.replace(self.out / "results.json")


def _jobs(size_set: str, rows: list[tuple[str, Workload, Params]], impls: list[str],
          iters: int, warmup: int, timeout: float, max_seconds: float | None,
          largest_first: bool) -> list[Job]:
    """Jobs in the order they run: by size rank (largest first when asked, so a
    budget cut loses the least interesting rows), then workload, then impl."""
    ranked = []
    for index, (name, work, params) in enumerate(rows):
        sizes = work.sizes.get(size_set) or []
        rank = sizes.index(params) if params in sizes else 0
        ranked.append((-rank if largest_first else rank, index, name, params))
    jobs = []
    for _rank, index, name, params in sorted(ranked):
        for impl in impls:
            jobs.append(Job(index, impl, name, params, iters, warmup, timeout, max_seconds))
    return jobs


def _handle_sigterm(_signum: int, _frame: Any) -> None:
    raise KeyboardInterrupt("SIGTERM")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=sorted(SUITES), default="cpu")
    parser.add_argument("--workloads", default="", help="comma-separated (default: the suite's)")
    parser.add_argument("--impls", default="", help="comma-separated (default: the suite's)")
    parser.add_argument("--sizes", default="", help="size set: tiny | cpu | gpu (default: suite's)")
    parser.add_argument("--iters", type=int, help="timed iterations (default: the suite's)")
    parser.add_argument("--warmup", type=int, help="warm-up iterations (default: the suite's)")
    parser.add_argument("--timeout", type=float, help="seconds per process (default: suite's)")
    parser.add_argument("--max-seconds", type=float,
                        help="bound on each timed phase: fewer iterations when slow")
    parser.add_argument("--budget", type=float,
                        help="seconds for the whole run; later jobs are skipped")
    parser.add_argument("--cpu-workers", type=int,
                        help="concurrent host-only processes (0: everything serial)")
    parser.add_argument("--prefork", action=argparse.BooleanOptionalAction, default=None,
                        help="start the next process while one is timed (default: suite's)")
    parser.add_argument("--largest-first", action="store_true",
                        help="run the largest sizes first (a budget cut loses small ones)")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the jobs in the order they would run, then stop")
    parser.add_argument("--inline", action="store_true",
                        help="run python implementations in this process (tests)")
    parser.add_argument("--out", default="", help="output folder (default benchmarks/out/SUITE)")
    parser.add_argument("--append", action="store_true",
                        help="merge into an existing results.json in --out (runs in chunks)")
    args = parser.parse_args(argv)
    suite = SUITES[args.suite]
    out = Path(args.out or f"benchmarks/out/{suite.name}")
    earlier = json.loads((out / "results.json").read_text()) \
        if args.append and (out / "results.json").is_file() else None
    iters = suite.iters if args.iters is None else args.iters
    warmup = suite.warmup if args.warmup is None else args.warmup
    timeout = suite.timeout if args.timeout is None else args.timeout
    max_seconds = suite.max_seconds if args.max_seconds is None else args.max_seconds
    budget = suite.budget if args.budget is None else args.budget
    cpu_workers = suite.cpu_workers() if args.cpu_workers is None else args.cpu_workers
    size_set = args.sizes or suite.size_set
    impls = args.impls.split(",") if args.impls else list(suite.impls)
    workloads = suite_workloads(suite)
    names = args.workloads.split(",") if args.workloads else list(workloads)
    rows = [(name, workloads[name], params) for name in names
            for params in workloads[name].sizes.get(size_set,
                                                    workloads[name].sizes.get(suite.size_set, []))]
    command = "python -m benchmarks.run " + " ".join(argv)
    header = {"suite": suite.name, "size_set": size_set, "iters": iters, "warmup": warmup,
              "max_seconds": max_seconds, "budget": budget, "cpu_workers": cpu_workers,
              "core_split": vars(CoreSplit.plan(cpu_workers)),
              "command": command, "inline": args.inline,
              "environment": describe_environment()}
    collector = Collector(out, header, rows, impls, earlier)
    deadline = time.monotonic() + budget if budget else None
    jobs = _jobs(size_set, rows, impls, iters, warmup, timeout, max_seconds,
                 args.largest_first or suite.largest_first)
    if args.dry_run:
        for job in jobs:
            print(f"{job.lane:3} {job.impl:14} {job.workload} {size_label(job.params)}"
                  + (f"  ({missing_reason(job.impl)})" if missing_reason(job.impl) else ""))
        print(f"{len(jobs)} jobs; cpu workers {cpu_workers}; budget {budget} s")
        return 0
    out.mkdir(parents=True, exist_ok=True)
    previous = signal.signal(signal.SIGTERM, _handle_sigterm)
    interrupted = False
    try:
        # inside the try: a SIGTERM during the inline jobs also ends in a
        # written, incomplete report (not an unhandled KeyboardInterrupt)
        pending = []
        for job in jobs:
            reason = missing_reason(job.impl)
            spec = IMPLS.get(job.impl)
            if reason is not None:
                collector.add(job.row, {"impl": job.impl, "error": reason})
            elif args.inline and spec is not None and not spec.own_process and spec.kind != "octave":
                collector.add(job.row, run_inline(job.impl, job.workload, job.params, iters, warmup))
            else:
                pending.append(job)
        prefork = suite.prefork if args.prefork is None else args.prefork
        Scheduler(cpu_workers, deadline, lambda job, res: collector.add(job.row, res),
                  prefork).run(pending)
    except KeyboardInterrupt:
        interrupted = True
        print("interrupted: writing what finished", flush=True)
    finally:
        signal.signal(signal.SIGTERM, previous)
    data_rows, _command, all_ok = collector.merged()
    table = ratio_table(data_rows)
    print(table)
    plots = plot_all(data_rows, out) if not interrupted else []
    collector.write(complete=not interrupted, plots=plots)
    all_ok = all_ok and not interrupted
    (out / "table.md").write_text(table + "\n")
    print(f"wrote {out / 'results.json'}" + (f" and {len(plots)} plots" if plots else ""))
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
