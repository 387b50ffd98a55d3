"""Host-side helpers shared by the providers (no device library imported).

``matlab_shape`` is the runtime's own shape rule; ``class_of`` maps a
buffer's NumPy dtype to the MATLAB class a provider records for it;
``single_if_mixed`` is MATLAB's class rule for comparing single with double.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate_api.support import matlab_shape

__all__ = ["class_of", "matlab_shape", "single_if_mixed"]


def class_of(dt: np.dtype) -> str:
    """MATLAB class of a buffer dtype; anything not logical/single/integer is double."""
    if dt == np.bool_:
        return "logical"
    if dt in (np.float32, np.complex64):
        return "single"
    if dt.kind in "iu":
        return dt.name
    return "double"


def single_if_mixed(a: Any, b: Any) -> tuple[Any, Any]:
    """Operands of a comparison of a single with a double, both in single:
    MATLAB rounds the double (``single(0.1) == 0.1`` is true), for arrays as
    for scalars. Works on NumPy and CuPy arrays; other operands pass through."""
    da, db = getattr(a, "dtype", None), getattr(b, "dtype", None)
    if da is None or db is None or da.kind not in "fc" or db.kind not in "fc":
        return a, b
    single_a, single_b = da.itemsize == (8 if da.kind == "c" else 4), \
        db.itemsize == (8 if db.kind == "c" else 4)
    if single_a == single_b:
        return a, b
    if single_a:
        return a, b.astype(np.complex64 if db.kind == "c" else np.float32)
    return a.astype(np.complex64 if da.kind == "c" else np.float32), b
