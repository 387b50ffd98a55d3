"""Host-side helpers shared by the providers (no device library imported).

``matlab_shape`` is the runtime's own shape rule; ``class_of`` maps a
buffer's NumPy dtype to the MATLAB class a provider records for it.
"""

from __future__ import annotations

import numpy as np

from matfuse.accelerate_api.support import matlab_shape

__all__ = ["class_of", "matlab_shape"]


def class_of(dt: np.dtype) -> str:
    """MATLAB class of a buffer dtype; anything not logical/single/integer is double."""
    if dt == np.bool_:
        return "logical"
    if dt in (np.float32, np.complex64):
        return "single"
    if dt.kind in "iu":
        return dt.name
    return "double"
