"""Small indexed writes into auto-offloaded arrays.

``A = zeros(n, n); for ..., A(i, j) = s; end``: under auto-offload ``zeros``
became a lazy generator on the device, and a device scatter per write (a
dispatch each) would make the loop crawl. ``U = zeros(n); U(n/2, n/2) = 1;``
followed by device work on ``U`` is the other common shape: one write, and
computing the zeros on the host would cost an upload of the whole array.
The planner cannot see which shape it is in, so it decides in hindsight:
the first small write into a pending generator runs on the device (one
kernel and one scatter); a second small write into that result brings the
array to the host (one download), where the rest of a filling loop runs as
in the CPU run. ``router.entry`` asks ``plan_indexed_write`` first.
"""

from __future__ import annotations

import math
import weakref
from typing import Any

from matfuse.accelerate.planner.decisions import HOST
from matfuse.runtime.dispatcher import auto_offload_suspended
from matfuse.runtime.values import AUTO_OFFLOADED, DeviceValue, shape_of


#: results of one small device write into a pending generator (a second
#: small write brings the array to the host)
_WRITTEN_ONCE: "weakref.WeakSet[Any]" = weakref.WeakSet()


def plan_indexed_write(v: Any, idx: list[Any], rhs: Any) -> tuple[Any, bool]:
    """Where ``v(idx...) = rhs`` runs: ``(host value, False)`` to assign
    into on the host instead of the device value ``v``, or ``(None, mark)``
    for the device assignment, whose result the caller passes to
    ``remember_small_write`` when ``mark`` is true.

    Applies to hidden (auto-offloaded) ``v`` with small host right-hand
    sides and host indices only: the first such write into a still-pending
    generator (no device buffer behind it) runs on the device and is
    remembered; a small write into a remembered result downloads it.
    """
    from matfuse.accelerate.planner.offload import ACTIVE, STATE

    if STATE.mode != ACTIVE or STATE.planner is None or not isinstance(v, DeviceValue) \
            or v not in AUTO_OFFLOADED or isinstance(rhs, DeviceValue) \
            or any(isinstance(i, DeviceValue) for i in idx):
        return None, False
    if _numel(rhs) >= STATE.planner.thresholds.get("elementwise"):
        return None, False
    if _generators_only(v):
        return None, True
    if v not in _WRITTEN_ONCE:
        return None, False
    STATE.planner.record(HOST, "indexed-write", "subsasgn", "elementwise", _numel(v))
    with auto_offload_suspended():
        return v.gather(), False


def remember_small_write(result: Any) -> None:
    """Note the device result of a first small write (``plan_indexed_write``)."""
    if isinstance(result, DeviceValue):
        _WRITTEN_ONCE.add(result)
        AUTO_OFFLOADED.add(result)


def _generators_only(v: Any) -> bool:
    """Whether ``v`` is lazy and its graph reads no device buffer."""
    if not (isinstance(v, DeviceValue) and v.is_lazy):
        return False
    from matfuse.accelerate.fusion.graph import walk

    return all(n.handle is None and n.op != "loop" for n in walk(v.node))


def _numel(v: Any) -> int:
    return int(math.prod(shape_of(v)))
