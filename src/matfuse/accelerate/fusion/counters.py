"""Counters of the fusion engine (``--stats``, benchmarks, tests)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class FusionStats:
    """Counters of the fusion engine (shown by ``--stats``). A launch-plan
    hit renders nothing: the render-cache counters do not see it."""

    kernels: int = 0
    fused_groups: int = 0
    fused_nodes: int = 0
    render_cache_hits: int = 0
    render_cache_misses: int = 0
    domain_fallbacks: int = 0
    bytes_read: int = 0
    bytes_written: int = 0
    host_evaluations: int = 0
    launch_plan_hits: int = 0
    launch_plan_misses: int = 0
    extra: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, int]:
        return {
            "kernels": self.kernels, "fused_groups": self.fused_groups,
            "fused_nodes": self.fused_nodes, "render_cache_hits": self.render_cache_hits,
            "render_cache_misses": self.render_cache_misses,
            "domain_fallbacks": self.domain_fallbacks, "bytes_read": self.bytes_read,
            "bytes_written": self.bytes_written, "host_evaluations": self.host_evaluations,
            "launch_plan_hits": self.launch_plan_hits,
            "launch_plan_misses": self.launch_plan_misses,
        }


STATS = FusionStats()
