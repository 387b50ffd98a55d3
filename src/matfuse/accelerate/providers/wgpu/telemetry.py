"""Counters of the wgpu provider: what moved, what ran, what was cached."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass
class WgpuTelemetry:
    """Plain counters; cheap enough to update on every call."""

    dispatches: int = 0
    submits: int = 0
    uploads: int = 0
    upload_bytes: int = 0
    downloads: int = 0
    download_bytes: int = 0
    #: blocking device round trips (downloads + waits that had work in flight)
    readbacks: int = 0
    syncs: int = 0
    bind_group_hits: int = 0
    bind_group_misses: int = 0
    pool_hits: int = 0
    pool_misses: int = 0
    op_counts: Counter = field(default_factory=Counter)
    op_seconds: Counter = field(default_factory=Counter)
    phase_seconds: Counter = field(default_factory=Counter)

    def record_op(self, name: str, seconds: float) -> None:
        self.op_counts[name] += 1
        self.op_seconds[name] += seconds

    def as_dict(self, pipeline_stats: dict[str, int]) -> dict[str, Any]:
        return {
            "dispatches": self.dispatches,
            "submits": self.submits,
            "uploads": self.uploads,
            "upload_bytes": self.upload_bytes,
            "downloads": self.downloads,
            "download_bytes": self.download_bytes,
            "readbacks": self.readbacks,
            "syncs": self.syncs,
            "bind_group_hits": self.bind_group_hits,
            "bind_group_misses": self.bind_group_misses,
            "buffer_pool_hits": self.pool_hits,
            "buffer_pool_misses": self.pool_misses,
            "pipeline_cache_hits": pipeline_stats.get("hits", 0),
            "pipeline_cache_misses": pipeline_stats.get("misses", 0),
            "ops": dict(self.op_counts),
            "op_seconds": dict(self.op_seconds),
            "phase_seconds": dict(self.phase_seconds),
        }


class PhaseTimer:
    """``with PhaseTimer(tel, "upload"):`` adds wall time to a phase counter."""

    __slots__ = ("_tel", "_phase", "_t0")

    def __init__(self, tel: WgpuTelemetry, phase: str):
        self._tel = tel
        self._phase = phase
        self._t0 = 0.0

    def __enter__(self) -> "PhaseTimer":
        self._t0 = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self._tel.phase_seconds[self._phase] += time.perf_counter() - self._t0
