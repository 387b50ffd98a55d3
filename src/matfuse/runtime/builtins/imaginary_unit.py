"""The imaginary unit ``i`` and ``j``: functions, so a variable of the same
name shadows them (``for i = 1:3`` works) while ``x = i`` gives ``0 + 1i``."""

from __future__ import annotations

import numpy as np

from matfuse.runtime.registry import builtin


@builtin("i", category="construction", nargin=(0, 0), aliases=("j",))
def imaginary_unit() -> np.ndarray:
    """Imaginary unit ``sqrt(-1)`` (``j`` is the same)."""
    return np.array([[1j]], dtype=np.complex128)
