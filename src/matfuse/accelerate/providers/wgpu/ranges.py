"""Split dispatch: element ranges for tensors larger than one storage binding.

WebGPU limits one storage binding (``max-storage-buffer-binding-size``: 2 GiB
on the H200, 128 MiB on lavapipe) well below the largest buffer
(``max-buffer-size``: 4 GiB on the H200). A tensor up to the buffer limit is
allocated whole; a kernel over it runs once per element range, binding the
range of every full-size operand (``setBindGroup`` entries with offset and
size) while small operands are bound whole. Range starts are multiples of
the adapter's ``min-storage-buffer-offset-alignment`` in bytes for every
operand's element size, and of 4 elements so Philox blocks (4 singles or 2
doubles per block) never straddle two ranges.
"""

from __future__ import annotations

from math import gcd
from typing import Sequence

#: largest piece of one staged upload/download (host-visible memory is
#: precious; a 4 GiB tensor moves in 16 pieces)
STAGING_PIECE_BYTES = 256 << 20
#: the smallest binding limit we accept (a lower knob value is raised to it)
MIN_BINDING_BYTES = 256


def effective_binding_limit(adapter_limit: int, alignment: int,
                            override: int | None = None) -> int:
    """Bytes one storage binding may cover: the adapter's limit, or the
    (lower) ``override`` from the options, rounded down to the alignment."""
    limit = int(adapter_limit)
    if override is not None and int(override) > 0:
        limit = min(limit, max(int(override), MIN_BINDING_BYTES, alignment))
    return max(alignment, limit // alignment * alignment)


def _lcm(a: int, b: int) -> int:
    return a * b // gcd(a, b)


def plan(n: int, itemsizes: Sequence[int], limit: int, alignment: int,
         multiple: int = 1) -> list[tuple[int, int]]:
    """Cover ``0..n-1`` with (start, count) ranges.

    Every range start is aligned for every element size in ``itemsizes`` and
    a multiple of 4 elements and of ``multiple`` (a partial pass's chunk
    count); ``count * max(itemsizes) <= limit``.

    Raises:
        ValueError: not even one step fits the limit.
    """
    step = _lcm(4, max(1, int(multiple)))
    for item in itemsizes:
        step = _lcm(step, alignment // gcd(alignment, item))
    widest = max(itemsizes)
    count = limit // widest // step * step
    if count <= 0:
        raise ValueError(f"binding limit {limit} holds no {step} elements of {widest} bytes")
    return [(s, min(count, n - s)) for s in range(0, n, count)]


def staging_piece_elements(itemsize: int, limit: int) -> int:
    """Elements per staged upload/download piece (the binding limit caps it
    too, so the tests' lowered limit exercises pieced staging)."""
    return max(1, min(STAGING_PIECE_BYTES, limit) // itemsize)
