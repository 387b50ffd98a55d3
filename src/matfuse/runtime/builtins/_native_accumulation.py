"""Integer ``sum``/``prod`` with ``'native'``: MATLAB accumulates in the
integer class, so each partial sum or product saturates
(``sum(int8([127 10 -20]), 'native')`` is 107, not the saturated exact
sum 117).

When no partial result leaves the class's range the exact reduction is the
answer; otherwise the elements are combined one at a time along the
reduced axes (vectorised over the other axes), in MATLAB's column-major
order.
"""

from __future__ import annotations

import numpy as np


def saturating_reduce(work: np.ndarray, axes: tuple[int, ...], is_sum: bool,
                      dtype: np.dtype) -> np.ndarray:
    """``sum``/``prod`` over ``axes`` (keepdims) of integer values held in
    ``work`` (float64, or object for 64-bit classes), each step saturated
    to ``dtype``'s range."""
    info = np.iinfo(dtype)
    # a vecdim is a set of dimensions: its elements are taken in memory
    # (column-major) order whatever order the dimensions are listed in
    axes = tuple(sorted(axes))
    lo, hi = (info.min, info.max) if work.dtype == object else (float(info.min), float(info.max))
    lead = work.ndim - len(axes)
    # the first reduced axis varies fastest in the flattened run (column-major)
    moved = np.moveaxis(work, tuple(reversed(axes)), tuple(range(lead, work.ndim)))
    runs = moved.reshape(moved.shape[:lead] + (int(np.prod(moved.shape[lead:])),))
    partial = np.cumsum(runs, axis=-1) if is_sum else np.cumprod(runs, axis=-1)
    if runs.shape[-1] == 0 or (np.all(partial >= lo) and np.all(partial <= hi)):
        result = partial[..., -1] if runs.shape[-1] else np.full(runs.shape[:-1], 0 if is_sum else 1,
                                                                  dtype=work.dtype)
    else:
        result = runs[..., 0].copy()
        for k in range(1, runs.shape[-1]):
            step = result + runs[..., k] if is_sum else result * runs[..., k]
            result = np.minimum(np.maximum(step, lo), hi)
    return np.expand_dims(np.asarray(result), tuple(sorted(axes)))
