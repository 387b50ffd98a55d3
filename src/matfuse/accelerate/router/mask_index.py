"""Logical masks that live on the device, used as subscripts of gpuArrays.

``A(mask)`` and ``X(mask, :)`` select a data-dependent number of elements:
the mask's true positions come from the provider's ``find`` (one 4-byte
count read back, which sizes the result) and feed ``index_gather``, so the
mask itself never crosses the bus. ``A(mask) = s`` with a scalar ``s`` needs
no count at all: every element picks either itself or ``s`` out of the table
``[A(:); s]`` at position ``i + mask_i * (n - i)`` (integer arithmetic on the
device, exact for NaN and Inf data, unlike ``A .* ~mask + s .* mask``).

Only masks with as many elements as the dimension they index are taken here;
other forms (shorter or longer masks, growth) go down the general path,
which raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

from matfuse.accelerate.gpuarray import GpuArray, wrap_handle
from matfuse.accelerate_api import AccelProvider
from matfuse.runtime._subscripts import is_vector_shape, linear_result_shape


def is_device_mask(p: AccelProvider, sub: Any) -> bool:
    """Whether ``sub`` is a logical gpuArray of ``p`` (a mask to keep there)."""
    return isinstance(sub, GpuArray) and sub.provider is p and sub.matlab_class == "logical"


def mask_positions(p: AccelProvider, mask: GpuArray, stride: int = 1) -> GpuArray:
    """0-based int32 positions of the true elements times ``stride``, a
    column (one count read back; may raise Unsupported)."""
    one_based = p.find(mask.valid_handle())
    try:
        zero_based = p.elem_binary("minus", one_based, 1.0, "float64")
    finally:
        p.free(one_based)
    try:
        if stride != 1:
            scaled = p.elem_binary("times", zero_based, float(stride), "float64")
            p.free(zero_based)
            zero_based = scaled
        return wrap_handle(p.cast(zero_based, "int32"), "int32", p)
    finally:
        p.free(zero_based)


def read_masked(p: AccelProvider, v: GpuArray, mask: GpuArray) -> GpuArray | None:
    """``v(mask)`` for a mask with ``numel(v)`` elements; None otherwise."""
    if mask.numel != v.numel or v.numel == 0:
        return None
    lin = mask_positions(p, mask)
    count = int(lin.shape[0])
    row = len(mask.shape) == 2 and mask.shape[0] == 1 and mask.shape[1] != 1
    out_shape = linear_result_shape(tuple(v.shape), (1, count) if row else (count, 1), count)
    if count == 0:
        return wrap_handle(p.fill(tuple(out_shape), 0.0, v.handle.dtype), v.matlab_class, p)
    return wrap_handle(p.index_gather(v.valid_handle(), lin.handle, tuple(out_shape)),
                       v.matlab_class, p)


def mask_axis_ok(sub: GpuArray, extent: int) -> bool:
    """Whether a device mask can index a dimension of ``extent`` elements
    (a vector of exactly that many elements)."""
    return sub.numel == extent and extent > 0 and (is_vector_shape(tuple(sub.shape))
                                                   or len(sub.shape) == 2)


def assign_scalar_masked(p: AccelProvider, v: GpuArray, mask: GpuArray, value: float) -> GpuArray | None:
    """``v(mask) = value`` for a real float ``v`` and a mask of ``numel(v)``
    elements, without reading anything back; None for other forms."""
    n = v.numel
    if mask.numel != n or n == 0 or n >= 2**31 - 1 or v.is_complex() \
            or v.matlab_class not in ("double", "single"):
        return None
    dtype = v.handle.dtype
    column = p.reshape(v.valid_handle(), (n, 1))
    fill = p.fill((1, 1), float(value), dtype)
    try:
        table = p.concat([column, fill], 0)
    finally:
        p.free(column)
        p.free(fill)
    table_array = wrap_handle(table, v.matlab_class, p)
    own = wrap_handle(p.colon(0.0, 1.0, n, "int32"), "int32", p)
    if tuple(mask.shape) != (1, n):
        own = wrap_handle(p.reshape(own.handle, tuple(mask.shape)), "int32", p)
    # i + mask .* (n - i): i where the mask is false, n (the value) where true
    rest = wrap_handle(p.elem_binary("minus", float(n), own.handle, "int32"), "int32", p)
    jump = wrap_handle(p.elem_binary("times", mask.handle, rest.handle, "int32"), "int32", p)
    picked = wrap_handle(p.elem_binary("plus", own.handle, jump.handle, "int32"), "int32", p)
    return wrap_handle(p.index_gather(table_array.handle, picked.handle, tuple(v.shape)),
                       v.matlab_class, p)
