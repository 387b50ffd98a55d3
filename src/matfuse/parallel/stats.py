"""Counters of parallel work (``--stats``): loops, tasks, chunks, bytes
moved and the time each worker spent running tasks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TextIO


@dataclass
class ParallelStats:
    parfor_loops: int = 0
    serial_loops: int = 0          # parfor run on the client (no pool)
    tasks: int = 0                 # tasks submitted (chunks + parfeval calls)
    chunks: int = 0
    iterations: int = 0
    fevals: int = 0
    bytes_sent: int = 0            # scattered + per-task data, estimated sizes
    bytes_received: int = 0
    worker_seconds: dict[str, float] = field(default_factory=dict)
    worker_tasks: dict[str, int] = field(default_factory=dict)
    # Seconds by phase of the parfors run on a pool (``distributed.py``).
    phases: dict[str, float] = field(default_factory=dict)

    def add_phase(self, name: str, seconds: float) -> None:
        self.phases[name] = self.phases.get(name, 0.0) + seconds

    def worker_done(self, name: str, seconds: float) -> None:
        self.worker_seconds[name] = self.worker_seconds.get(name, 0.0) + seconds
        self.worker_tasks[name] = self.worker_tasks.get(name, 0) + 1

    def used(self) -> bool:
        return bool(self.parfor_loops or self.serial_loops or self.fevals)

    def as_dict(self) -> dict[str, Any]:
        return {
            "parfor_loops": self.parfor_loops, "serial_loops": self.serial_loops,
            "tasks": self.tasks, "chunks": self.chunks, "iterations": self.iterations,
            "fevals": self.fevals, "bytes_sent": self.bytes_sent,
            "bytes_received": self.bytes_received,
            "worker_seconds": dict(self.worker_seconds),
            "worker_tasks": dict(self.worker_tasks),
            "phases": dict(self.phases),
        }

    def text(self) -> str:
        lines = ["== matfuse parallel statistics ==",
                 f"parfor loops: {self.parfor_loops} on the pool, {self.serial_loops} serial",
                 f"tasks: {self.tasks} ({self.chunks} parfor chunks, {self.fevals} parfeval), "
                 f"iterations: {self.iterations}",
                 f"bytes moved: {self.bytes_sent} sent, {self.bytes_received} received"]
        for name in sorted(self.worker_seconds, key=str):
            lines.append(f"worker {name}: {self.worker_tasks[name]} tasks, "
                         f"{self.worker_seconds[name]:.3f} s")
        for name, seconds in self.phases.items():
            lines.append(f"{name}: {seconds:.3f} s")
        return "\n".join(lines) + "\n"


STATS = ParallelStats()


def size_of(value: Any) -> int:
    """Estimated bytes of a value sent between processes."""
    from dask.sizeof import sizeof

    return int(sizeof(value))


def print_stats(stream: TextIO) -> None:
    """``--stats``: the counters, when parallel work ran."""
    if STATS.used():
        stream.write(STATS.text())
        stream.flush()
