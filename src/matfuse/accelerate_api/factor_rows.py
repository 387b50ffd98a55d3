"""The row order of an LU factorisation from LAPACK's pivot swaps, written
once for every provider that gets ``getrf``'s ``ipiv`` from a library."""

from __future__ import annotations

import numpy as np


def rows_of_swaps(piv: np.ndarray, m: int) -> np.ndarray:
    """A 1 x m float64 row ``p`` of 1-based rows with ``A(p, :) = L*U``,
    from 0-based ``piv`` (row ``k`` was swapped with row ``piv[k]``, in
    order)."""
    order = np.arange(m)
    for k, r in enumerate(np.asarray(piv, dtype=np.int64).reshape(-1)):
        if r != k:
            order[[k, r]] = order[[r, k]]
    return (order + 1.0).reshape(1, -1)
