"""Positions of an N-D range selection on the host (NumPy): the meaning of
the provider protocol's ``range_positions`` and of fused ``range_gather``
reads, written once for the in-process provider and the fusion engine's
host evaluation."""

from __future__ import annotations

from typing import Sequence

import numpy as np


def host_range_positions(axes: Sequence[tuple[int, int, int, int]], base: int,
                         counts: Sequence[int]) -> np.ndarray:
    """int64 positions of shape ``counts``: ``base + sum_d v_d(k_d)`` with
    ``v_d(j) = first + j*step``, or ``((first + j*step) mod modulus) * scale``
    when ``modulus > 0``, for ``axes[d] = (first, step, modulus, scale)``."""
    counts = tuple(int(c) for c in counts)
    out = np.full(counts, base, dtype=np.int64)
    for d, ((first, step, modulus, scale), count) in enumerate(zip(axes, counts)):
        v = first + np.arange(count, dtype=np.int64) * step
        if modulus > 0:
            v = np.mod(v, modulus) * scale
        along = [1] * len(counts)
        along[d] = count
        out += v.reshape(along)
    return out
