"""Numeric index arrays that live on the device, used as linear subscripts
of gpuArrays: ``x(k)`` and ``x(k) = v`` where ``k`` came out of device
code (``[~, k] = sort(x)``, ``find``, ``unique``'s ``ic``).

The subscript stays on the device: one reduction checks that every element
is a positive integer no greater than ``numel(x)`` (one logical read back;
MATLAB must know before it reads), and ``k - 1`` cast to int32 is the
positions buffer of ``index_gather``/``index_scatter``. An invalid
subscript, growth (an assignment beyond the end), ``x(k, j)`` forms and
arrays of 2^31 or more elements return None: the general path brings the
subscript to the host and raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

from matfuse.accelerate.gpuarray import GpuArray, wrap_handle
from matfuse.accelerate.router.launch import any_true
from matfuse.accelerate_api import AccelProvider, GpuTensorHandle, Unsupported
from matfuse.runtime._subscripts import linear_result_shape

_NUMERIC = frozenset({"double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32"})
_INT32_LIMIT = 2**31 - 1


def is_device_subscript(p: AccelProvider, sub: Any) -> bool:
    """Whether ``sub`` is a real numeric gpuArray of ``p`` (not a mask)."""
    return isinstance(sub, GpuArray) and sub.provider is p and sub.matlab_class in _NUMERIC \
        and not sub.is_complex() and 0 not in sub.shape


def linear_positions(p: AccelProvider, sub: GpuArray, numel: int) -> GpuArray | None:
    """0-based int32 positions ``sub - 1`` on the device, or None when some
    element is not an integer in ``1..numel`` (or the sizes exceed int32)."""
    if numel >= _INT32_LIMIT or sub.numel >= _INT32_LIMIT:
        return None
    temps: list[GpuTensorHandle] = []
    try:
        k = sub.valid_handle()
        if sub.matlab_class not in ("double", "single"):
            k = p.cast(k, "float64")
            temps.append(k)
        work = k.dtype
        below = p.elem_binary("lt", k, 1.0, "bool")
        temps.append(below)
        above = p.elem_binary("gt", k, float(numel), "bool")
        temps.append(above)
        whole = p.elem_unary("fix", k, work)
        temps.append(whole)
        fraction = p.elem_binary("ne", k, whole, "bool")    # NaN: not equal
        temps.append(fraction)
        outside = p.elem_binary("or", below, above, "bool")
        temps.append(outside)
        bad = p.elem_binary("or", outside, fraction, "bool")
        temps.append(bad)
        if any_true(p, bad):
            return None
        shifted = p.elem_binary("minus", k, 1.0, work)
        temps.append(shifted)
        return wrap_handle(p.cast(shifted, "int32"), "int32", p)
    except Unsupported:
        return None
    finally:
        for h in temps:
            p.free(h)


def read_at(p: AccelProvider, v: GpuArray, sub: GpuArray) -> GpuArray | None:
    """``v(sub)``: MATLAB's shape (the subscript's, or the orientation of a
    vector ``v`` for a vector subscript)."""
    positions = linear_positions(p, sub, v.numel)
    if positions is None:
        return None
    shape = linear_result_shape(tuple(v.shape), tuple(sub.shape), sub.numel)
    try:
        h = p.index_gather(v.valid_handle(), positions.handle, shape)
    except Unsupported:
        return None
    return wrap_handle(h, v.matlab_class, p)


def gather_at(v: GpuArray, positions: GpuArray, out_shape: tuple[int, ...]) -> GpuArray:
    """``v`` at the 0-based int32 positions that device code computed (and
    guarantees in range: no host check, no read-back)."""
    p = v.provider
    return wrap_handle(p.index_gather(v.valid_handle(), positions.handle, out_shape),
                       v.matlab_class, p)
