"""Runs benchmark jobs in worker processes: a serial GPU lane, a parallel CPU lane.

* GPU lane: one timed process at a time, so device timings are undisturbed.
  With ``prefork``, the next job's process is started while the current one
  is timed; it prepares (imports, provider start-up, torch.compile's
  compile workers) on half of the lane's cores and waits for a "go" line
  naming the other half, where it is then timed: a preparing process never
  shares cores with a timed one (it did, and host-bound rows such as the
  smallmixed guard came out 1.0x or 1.7x depending on what was preparing).
* CPU lane: host-only implementations (numpy, matfuse-host) run concurrently
  in ``cpu_workers`` processes, each pinned to cores the GPU lane does not use
  (and with BLAS threads limited to them).
* A suite-wide deadline: a job not started by then is reported as skipped; a
  running job is cut at the deadline, keeping the iterations it finished.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from benchmarks._worker import CORES_VAR, READY
from benchmarks.impls import IMPLS

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = "skipped: suite time budget exhausted"
PREPARE_TIMEOUT = 90.0      # seconds for imports and provider start-up
EXIT_GRACE = 5.0            # seconds a process may take to exit after its result
THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@dataclass(frozen=True)
class Job:
    """One implementation of one workload at one size."""

    row: int                    # index of the (workload, size) row
    impl: str
    workload: str
    params: dict[str, float]
    iters: int
    warmup: int
    timeout: float
    max_seconds: float | None = None

    @property
    def lane(self) -> str:
        spec = IMPLS.get(self.impl)
        return spec.lane if spec is not None else "gpu"


@dataclass
class CoreSplit:
    """Which cores the GPU lane and each CPU-lane worker may use (empty: any)."""

    gpu: list[int] = field(default_factory=list)
    cpu: list[list[int]] = field(default_factory=list)

    def gpu_halves(self) -> tuple[list[int], list[int]]:
        """(cores a timed GPU-lane process runs on, cores the next one
        prepares on): disjoint halves of the lane when it has two cores or more."""
        if len(self.gpu) < 2:
            return self.gpu, self.gpu
        half = len(self.gpu) // 2
        return self.gpu[:half], self.gpu[half:]

    @staticmethod
    def plan(cpu_workers: int) -> "CoreSplit":
        cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        if cpu_workers <= 0 or len(cores) < 2:
            return CoreSplit()
        n_gpu = max(1, len(cores) * 3 // 8)
        rest = cores[n_gpu:]
        per = max(1, len(rest) // cpu_workers)
        return CoreSplit(cores[:n_gpu], [rest[i * per:(i + 1) * per] or rest[-1:]
                                         for i in range(cpu_workers)])


class WorkerProcess:
    """One ``benchmarks._worker`` process started with ``--wait-go``."""

    def __init__(self, job: Job, cores: list[int]):
        self.job = job
        cmd = [sys.executable, "-m", "benchmarks._worker", job.impl, job.workload,
               "--params", json.dumps(job.params), "--iters", str(job.iters),
               "--warmup", str(job.warmup), "--wait-go"]
        if job.max_seconds is not None:
            cmd += ["--max-seconds", str(job.max_seconds)]
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), str(ROOT / "src"),
                                                        env.get("PYTHONPATH", "")) if p)
        if cores:   # the worker pins itself before it imports numpy (no preexec_fn in threads)
            env.update({var: str(len(cores)) for var in THREAD_VARS})
            env[CORES_VAR] = ",".join(map(str, cores))
        self.lines: list[str] = []
        self.ready = threading.Event()
        self.done = threading.Event()      # final result line read, or output closed
        self.stderr = tempfile.TemporaryFile(mode="w+")
        self.started = time.perf_counter()
        self.ready_at: float | None = None
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.stderr, start_new_session=True)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.strip() == READY:
                self.ready_at = time.perf_counter()
                self.ready.set()
            else:
                self.lines.append(line)
                if line.startswith("{") and '"partial": true' not in line:
                    self.done.set()
        self.ready.set()        # exited before READY: an error line says why
        self.done.set()

    def go(self, cores: list[int] | None = None) -> None:
        """Start the timed phase, on ``cores`` when given (the worker re-pins)."""
        line = "go" + (" " + ",".join(map(str, cores)) if cores else "")
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass                # it exited while preparing; its output says why

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait()

    def result(self, timeout: float) -> dict[str, Any]:
        """Wait for the final line (killing the process after ``timeout``)."""
        timed_out = not self.done.wait(timeout=max(timeout, 0.1))
        try:    # a process that hangs on exit (device teardown) costs the grace only
            self.proc.wait(timeout=0.1 if timed_out else EXIT_GRACE)
        except subprocess.TimeoutExpired:
            self.kill()
        self.reader.join(timeout=5)
        wall = time.perf_counter() - self.started
        return self._parse(timed_out, timeout, wall)

    def _parse(self, timed_out: bool, timeout: float, wall: float) -> dict[str, Any]:
        records = []
        for line in self.lines:
            if line.startswith("{"):
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError:
                    continue
        final = next((r for r in reversed(records) if not r.get("partial")), None)
        partial = next((r for r in reversed(records) if r.get("partial")), None)
        base = {"impl": self.job.impl, "workload": self.job.workload, "params": self.job.params}
        if final is not None:
            result = final
        elif partial is not None:   # cut short: keep the iterations that finished
            result = base | {"checksum": partial.get("checksum"), "times": partial["times"],
                             "note": f"cut at {timeout:.0f} s after {len(partial['times'])} "
                                     f"of {self.job.iters} timed iterations"}
        else:
            self.stderr.seek(0)
            tail = self.stderr.read()[-600:]
            why = f"timeout after {timeout:.0f} s" if timed_out else "no result"
            result = base | {"error": f"{why}: {tail}" if tail.strip() else why}
        self.stderr.close()
        if self.ready_at is not None and "run_s" in result:
            # interpreter start to READY, plus the run: the wait for "go" left out
            result["cold_wall"] = self.ready_at - self.started + result["run_s"]
        else:
            result["cold_wall"] = wall
        return result


class Scheduler:
    """Runs jobs on the two lanes; ``on_result(job, result)`` as each finishes."""

    def __init__(self, cpu_workers: int, deadline: float | None,
                 on_result: Callable[[Job, dict[str, Any]], None], prefork: bool = True):
        self.split = CoreSplit.plan(cpu_workers)
        self.prefork = prefork
        self.cpu_workers = cpu_workers
        self.deadline = deadline
        self.on_result = on_result
        self._lock = threading.Lock()
        self._live: set[WorkerProcess] = set()
        self._stop = False

    def _remaining(self) -> float:
        return float("inf") if self.deadline is None else self.deadline - time.monotonic()

    def _report(self, job: Job, result: dict[str, Any]) -> None:
        with self._lock:
            self.on_result(job, result)

    def _skip(self, job: Job) -> None:
        self._report(job, {"impl": job.impl, "workload": job.workload,
                           "params": job.params, "error": SKIPPED})

    def _start(self, job: Job, cores: list[int]) -> WorkerProcess:
        worker = WorkerProcess(job, cores)
        with self._lock:
            self._live.add(worker)
        return worker

    def _finish(self, worker: WorkerProcess, cores: list[int] | None = None) -> None:
        budget = min(worker.job.timeout, max(self._remaining(), 1.0))
        if not worker.ready.wait(timeout=min(PREPARE_TIMEOUT, budget)):
            worker.kill()
        worker.go(cores)
        result = worker.result(budget)
        with self._lock:
            self._live.discard(worker)
        self._report(worker.job, result)

    def run(self, jobs: list[Job]) -> None:
        gpu_jobs = [j for j in jobs if self.cpu_workers <= 0 or j.lane == "gpu"]
        cpu_jobs = [j for j in jobs if self.cpu_workers > 0 and j.lane == "cpu"]
        pool = ThreadPoolExecutor(max_workers=max(1, self.cpu_workers))
        try:
            slots = self.split.cpu or [[]]
            queue = list(cpu_jobs)
            qlock = threading.Lock()

            def cpu_worker(cores: list[int]) -> None:
                while not self._stop:
                    with qlock:
                        if not queue:
                            return
                        job = queue.pop(0)
                    if self._remaining() <= 0:
                        self._skip(job)
                        continue
                    self._finish(self._start(job, cores))

            futures = [pool.submit(cpu_worker, cores) for cores in slots] if cpu_jobs else []
            self._run_gpu_lane(gpu_jobs)
            for fut in futures:
                fut.result()
        finally:
            self._stop = True
            pool.shutdown(wait=False, cancel_futures=True)
            with self._lock:
                live = list(self._live)
            for worker in live:
                worker.kill()

    def _run_gpu_lane(self, jobs: list[Job]) -> None:
        upcoming: WorkerProcess | None = None
        for k, job in enumerate(jobs):
            if self._remaining() <= 0:
                if upcoming is not None:
                    upcoming.kill()
                    upcoming = None
                self._skip(job)
                continue
            timed, preparing = self.split.gpu_halves()
            current = upcoming if upcoming is not None else self._start(job, timed)
            upcoming = None
            budget = min(PREPARE_TIMEOUT, max(self._remaining(), 1.0))
            current.ready.wait(timeout=budget)
            if self.prefork and k + 1 < len(jobs):
                # prepare the next one while this one is timed (start-up is
                # host work), on the other half of the lane's cores
                upcoming = self._start(jobs[k + 1], preparing)
            self._finish(current, timed)
