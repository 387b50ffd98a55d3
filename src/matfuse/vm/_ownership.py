"""Whether an assignment may update a value in place: MATLAB's copy on
write, decided by counting who holds the value (``sys.getrefcount``)."""

from __future__ import annotations

import sys
from typing import Any, Callable

import numpy as np

from matfuse.runtime.values import CellArray, DeviceValue, StructArray


def owns_buffer(arr: np.ndarray, getrefcount: Callable[[Any], int] = sys.getrefcount) -> bool:
    """``arr`` owns its memory, or is the only view of a base nobody else sees."""
    base = arr.base
    while base is not None:
        # held by the view's .base, the local name and the call argument
        if type(base) is not np.ndarray or getrefcount(base) > 3:
            return False
        base = base.base
    return True


def exclusive(obj: Any, holders: int,
               getrefcount: Callable[[Any], int] = sys.getrefcount) -> bool:
    """True when the caller's ``holders`` references (say the workspace dict
    and a local name) are all there are to ``obj`` and to its element
    buffer: nobody else can see an in-place update (MATLAB's copy on write).
    This call's parameter and getrefcount's argument add two."""
    if getrefcount(obj) > holders + 2:
        return False
    t = type(obj)
    if t is np.ndarray:
        return owns_buffer(obj)
    if t is CellArray or t is StructArray:
        data = obj.data
        # data: the wrapper's slot, this local, the argument.
        return getrefcount(data) <= 3 and owns_buffer(data)
    # A fusion graph reading a device buffer holds the value too (its input
    # node's owner), so a shared device buffer never looks exclusive.
    return isinstance(obj, DeviceValue)
