"""Device copies of unchanged host arrays that device code reads again.

A loop-invariant host operand (``w`` in ``for t = 1:T, acc = acc + w .* t;
end`` under automatic offload) would be uploaded on every iteration. The
planner asks here instead: the first request uploads the array and keeps the
device copy, keyed by the host array's identity; later requests for the same
array get the same copy.

Exactness: MATLAB values are immutable, but the runtime may update an
array's buffer in place when one variable owns it (``x(k) = v``). A cached
array is therefore frozen (``writeable = False``): the runtime's in-place
paths see that and copy on write, so a cached array can never change, and a
write produces a new array (a new identity, uploaded anew). Only arrays that
own their buffer are kept (a view could change through its base). The
device copy is shared: it is marked so that indexed assignment never writes
into it in place. Entries go when the host array is collected, least
recently used first beyond the bounds, and when the top-level command ends.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray, upload_value
from matfuse.accelerate_api import AccelProvider
from matfuse.runtime import hints
from matfuse.runtime.values import CHAR_DTYPE

#: device copies shared by several users: never updated in place
SHARED: "weakref.WeakSet[GpuArray]" = weakref.WeakSet()


def is_shared(g: Any) -> bool:
    """Whether ``g`` is a cached device copy (read-only for its users)."""
    return g in SHARED


class HostArrayResidency:
    """The cache (see the module doc). Bounded by entries and bytes."""

    MAX_ENTRIES = 64
    MAX_BYTES = 512 << 20

    def __init__(self) -> None:
        self._entries: OrderedDict[int, tuple["weakref.ref[np.ndarray]", GpuArray, int]] = \
            OrderedDict()
        self._bytes = 0
        # host arrays the planner has seen as operands (a second sighting is a re-read)
        self._seen: OrderedDict[int, "weakref.ref[np.ndarray]"] = OrderedDict()

    def device_copy(self, value: np.ndarray, p: AccelProvider) -> GpuArray:
        """``value`` on ``p``: the kept copy when ``value`` was uploaded
        before and is unchanged, else a fresh upload (kept when it can be)."""
        if not self._keepable(value):
            return upload_value(value, p)
        key = id(value)
        hit = self._entries.get(key)
        if hit is not None:
            ref, g, _ = hit
            if ref() is value and g.provider is p and g.is_valid and not value.flags.writeable:
                self._entries.move_to_end(key)
                return g
            self._drop(key)
        g = upload_value(value, p)
        value.flags.writeable = False
        SHARED.add(g)
        self._entries[key] = (weakref.ref(value, lambda _ref, key=key: self._drop(key)), g,
                              value.nbytes)
        self._bytes += value.nbytes
        while len(self._entries) > self.MAX_ENTRIES or self._bytes > self.MAX_BYTES:
            self._drop(next(iter(self._entries)))
        return g

    def reread(self, value: Any, p: AccelProvider) -> bool:
        """Whether device code reads host array ``value`` again: it has a
        kept copy, or the planner saw it as an operand before (counted
        here; the first sighting answers False)."""
        if type(value) is not np.ndarray or not self._keepable(value):
            return False
        key = id(value)
        hit = self._entries.get(key)
        if hit is not None and hit[0]() is value and hit[1].provider is p and hit[1].is_valid \
                and not value.flags.writeable:
            return True
        seen = self._seen.get(key)
        if seen is not None and seen() is value:
            return True
        self._seen[key] = weakref.ref(value, lambda _ref, key=key: self._seen.pop(key, None))
        while len(self._seen) > 4 * self.MAX_ENTRIES:
            self._seen.pop(next(iter(self._seen)))
        return False

    def _keepable(self, value: np.ndarray) -> bool:
        return (type(value) is np.ndarray and value.base is None and value.size > 1
                and value.dtype != CHAR_DTYPE and value.dtype.kind in "biuf"
                and value.nbytes <= self.MAX_BYTES // 4)

    def _drop(self, key: int) -> None:
        entry = self._entries.pop(key, None)
        if entry is not None:
            self._bytes -= entry[2]

    def clear(self) -> None:
        self._entries.clear()
        self._seen.clear()
        self._bytes = 0

    def __len__(self) -> int:
        return len(self._entries)


HOST_RESIDENCY = HostArrayResidency()
hints.command_end_hooks.append(HOST_RESIDENCY.clear)
