"""``matfuse run --explain``: turn on decision recording before the program
runs and print the per-line report (stderr) when it ends."""

from __future__ import annotations

import sys
from typing import Any, TextIO

OFFLOAD_MODULE = "matfuse.accelerate.planner.offload"


def start_explain(options: Any) -> None:
    if not getattr(options, "explain", False):
        return
    from matfuse.accelerate.planner.offload import enable_explain

    enable_explain(True)


def finish_explain(options: Any, stream: TextIO | None = None) -> None:
    """Print the explain report (``--explain``) and keep the last decisions
    for ``matfuse info`` (when the planner ran: its module is loaded then)."""
    if not getattr(options, "explain", False) and OFFLOAD_MODULE not in sys.modules:
        return
    from matfuse.accelerate.planner import offload

    planner = offload.STATE.planner
    if planner is not None and planner.log.counts:
        from matfuse.accelerate.planner.last_run import save_last_decisions

        save_last_decisions(planner.log)
    if not getattr(options, "explain", False):
        return
    from matfuse.accelerate.planner.explain import explain_report

    decisions = planner.log.all if planner is not None else None
    (stream or sys.stderr).write(explain_report(decisions, offload.STATE.mode, offload.STATE.note,
                                                offload.STATE.fallback_lines))
