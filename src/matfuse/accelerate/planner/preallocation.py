"""Small indexed writes into an auto-offloaded array nobody has computed yet.

``A = zeros(n, n); for ..., A(i, j) = s; end``: under auto-offload ``zeros``
became a lazy generator on the device. Each write would be a device scatter
(a dispatch and an upload of ``s``); instead the planner computes the
generator on the host (no device work: nothing was ever materialised) and
the loop runs as in the CPU run. ``router.entry`` asks
``indexed_write_on_host`` first.
"""

from __future__ import annotations

import math
from typing import Any

from matfuse.accelerate.planner.decisions import HOST
from matfuse.runtime.dispatcher import auto_offload_suspended
from matfuse.runtime.values import AUTO_OFFLOADED, DeviceValue


def indexed_write_on_host(v: Any, idx: list[Any], rhs: Any) -> Any:
    """The host value to assign into instead of the device value ``v``, or
    None (the device assignment runs).

    ``A = zeros(n, n); for ... A(i, j) = s; end``: a hidden ``v`` that is
    still a lazy generator graph (fill, linspace, random: no device buffer
    behind it) is computed on the host, where small writes cost nothing,
    instead of a device scatter (a dispatch and an upload) per write.
    Applies to small host right-hand sides and host indices only.
    """
    from matfuse.accelerate.planner.offload import ACTIVE, STATE

    if STATE.mode != ACTIVE or STATE.planner is None or not isinstance(v, DeviceValue) \
            or v not in AUTO_OFFLOADED or isinstance(rhs, DeviceValue) \
            or any(isinstance(i, DeviceValue) for i in idx):
        return None
    if _numel(rhs) >= STATE.planner.thresholds.get("elementwise") or not _generators_only(v):
        return None
    STATE.planner.record(HOST, "indexed-write", "subsasgn", "elementwise", _numel(v))
    from matfuse.accelerate.fusion.host_eval import evaluate

    with auto_offload_suspended():
        return evaluate(v.node, _no_download)


def _generators_only(v: Any) -> bool:
    """Whether ``v`` is lazy and its graph reads no device buffer."""
    node = getattr(v, "node", None)
    if node is None or not getattr(v, "is_lazy", False):
        return False
    from matfuse.accelerate.fusion.graph import walk

    return all(n.handle is None and n.op != "loop" for n in walk(node))


def _no_download(handle: Any) -> Any:
    raise AssertionError("a generator-only graph has no device inputs")


def _numel(v: Any) -> int:
    return int(math.prod(v.shape)) if hasattr(v, "shape") else 1
