"""Peer implementations by workload name (NumPy/CuPy and PyTorch).

The implementations live next to each script, in ``benchmarks/NAME/peers.py``;
this module gathers them for callers that want one table.
"""

from __future__ import annotations

from typing import Any, Callable

from benchmarks.workloads import WORKLOADS


def _collect(attr: str) -> dict[str, Callable[..., Any]]:
    table = {}
    for name, work in WORKLOADS.items():
        peers = work.peers()
        if peers is not None:
            table[name] = getattr(peers, attr)
    return table


XP_IMPLS: dict[str, Callable[..., float]] = _collect("run_xp")
TORCH_IMPLS: dict[str, Callable[..., Any]] = _collect("make_torch")
