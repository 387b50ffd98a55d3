"""The fusion context of an operation: how big is the lazy fused group it
would join?

An auto-offloaded value that is still lazy (a generator such as
``randn(M,1,'single')`` or an unmaterialised elementwise chain) is a
*pending group*: no kernel has run for it yet. An operation on it joins
that group (one kernel for all of them) when it runs on the device, while
running it on the CPU would force the group: a kernel launch and a
download. The planner weighs that (rule ``fusion`` in ``decisions``).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from matfuse.runtime.values import AUTO_OFFLOADED, DeviceValue


def pending_nodes(v: Any) -> int:
    """Unmaterialised fusion nodes behind device value ``v`` (0: concrete)."""
    if not isinstance(v, DeviceValue) or not v.is_lazy:
        return 0
    return max(1, v.node.cost)


def lazy_group_size(name: str, operands: Sequence[Any]) -> int:
    """Operations in the group ``name(operands)`` would join: itself plus
    the pending nodes of its lazy auto-offloaded operands. The planner's
    default fusion context (``Planner.set_fusion_context``)."""
    return 1 + sum(pending_nodes(a) for a in operands
                   if isinstance(a, DeviceValue) and a in AUTO_OFFLOADED)


def hidden_operands(operands: Sequence[Any]) -> tuple[bool, int]:
    """(whether an auto-offloaded operand already holds a device buffer,
    bytes a CPU run would compute and download from the lazy ones)."""
    materialised = False
    pending = 0
    for a in operands:
        if isinstance(a, DeviceValue) and a in AUTO_OFFLOADED:
            if pending_nodes(a):
                cls = a.underlying_class()
                itemsize = 4 if cls == "single" else 1 if cls == "logical" else 8
                pending += itemsize * int(math.prod(a.shape))
            else:
                materialised = True
    return materialised, pending
