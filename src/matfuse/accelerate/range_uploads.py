"""Host vectors that are integer ranges are generated on the device.

``(1:n)'``, ``0:M-1``, ``[7 8]``: a double vector whose elements are
``start + k*step`` with integer ``start`` and ``step`` is made by the
provider's int32 ``colon`` (exact integer arithmetic from two uniforms) and
cast to double, instead of being copied over the bus. The test is O(1) for
data that is not a range (first, second and last elements) and one
vectorised comparison for data that is. Results are bit-identical: every
element is an integer below 2^31 in magnitude, exact in int32 and double.
"""

from __future__ import annotations

import numpy as np

from matfuse.accelerate_api import AccelProvider, GpuTensorHandle, Unsupported

_LIMIT = 2**31 - 1


def integer_range(value: np.ndarray) -> tuple[int, int] | None:
    """(start, step) when the double vector ``value`` (two or more elements)
    is an integer arithmetic progression within int32; else None."""
    if value.dtype != np.float64 or value.ndim != 2 or 1 not in value.shape or value.size < 2:
        return None
    flat = value.reshape(-1)
    first, second, last = float(flat[0]), float(flat[1]), float(flat[-1])
    step = second - first
    n = flat.size
    if not (first.is_integer() and step.is_integer()) or last != first + (n - 1) * step:
        return None
    if max(abs(first), abs(last)) >= _LIMIT:
        return None
    expected = np.arange(n, dtype=np.float64) * step + first
    if not np.array_equal(flat, expected):
        return None
    if np.signbit(flat[flat == 0.0]).any():
        return None  # -0 (anywhere: [0 -0] is equal to 0:0) is not what the integer colon makes
    return int(first), int(step)


def generate_range(p: AccelProvider, value: np.ndarray) -> GpuTensorHandle | None:
    """The device copy of ``value`` made by the provider when it is an
    integer range (None: upload it)."""
    found = integer_range(value)
    if found is None:
        return None
    start, step = found
    try:
        ints = p.colon(float(start), float(step), int(value.size), "int32")
    except Unsupported:
        return None
    try:
        out = p.cast(ints, "float64")
    except Unsupported:
        return None
    finally:
        p.free(ints)
    if tuple(value.shape) != tuple(out.shape):
        try:
            shaped = p.reshape(out, tuple(value.shape))
        except Unsupported:
            p.free(out)
            return None
        p.free(out)
        out = shaped
    return out
