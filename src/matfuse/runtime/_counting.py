"""Counting rows for small-array paths: the doubles 0, 1, 2, ... made once.

Unit colon ranges of whole numbers are copies of a slice of ``COUNTING_ROW``
(cheaper than ``np.arange``), and 0-based positions from ``argsort`` or
``nonzero`` become MATLAB's 1-based double indices with one ``take`` (an
integer array plus a float costs a mixed-type ufunc call). The rows are
read-only: every caller gets a fresh array.
"""

from __future__ import annotations

import numpy as np

COUNTING_SIZE = 1 << 16
COUNTING_ROW = np.arange(COUNTING_SIZE, dtype=np.float64).reshape(1, COUNTING_SIZE)
COUNTING_ROW.flags.writeable = False
_ONE_BASED = COUNTING_ROW[0, 1:]


def one_based(positions: np.ndarray, extent: int) -> np.ndarray:
    """``positions + 1.0`` as doubles, shaped like ``positions``, for 0-based
    integer positions below ``extent`` (the length of what they index)."""
    if extent < COUNTING_SIZE:
        return _ONE_BASED.take(positions)
    return np.add(positions, 1.0)
