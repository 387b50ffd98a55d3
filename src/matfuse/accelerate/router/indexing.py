"""``g(idx...)`` and ``g(idx...) = rhs`` for gpuArrays.

The index arithmetic (colon, ``end``, logical masks, N-D subscripts, every
MATLAB error) is the runtime's: we index a host array of element positions
with the same subscripts and send the resulting positions to the provider's
``index_gather``/``index_scatter``. The data itself never leaves the device.
Assignments that grow, delete or change the class take the host path.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray, upload_value, wrap_handle
from matfuse.accelerate.router.index_positions import (
    device_positions,
    lazy_range_read,
    plain_axis,
    rhs_fits,
    select,
    selection_of,
    strides_of,
)
from matfuse.accelerate.residency import is_shared
from matfuse.accelerate.router.device_subscripts import (
    gather_at, is_device_subscript, linear_positions, read_at,
)
from matfuse.accelerate.router.scatter_order import last_writes
from matfuse.accelerate.router.mask_index import (
    assign_scalar_masked,
    is_device_mask,
    mask_positions,
    read_masked,
)
from matfuse.accelerate.planner.fallback_reasons import call_form
from matfuse.accelerate_api import AccelProvider, HostTensor, Unsupported, count_fallback
from matfuse.runtime import hints
from matfuse.runtime.values import DeviceValue, canonical, class_of, shape_of, to_array


def _host_index(idx: list[Any]) -> list[Any]:
    # Subscripts that live on the device are needed on the host to resolve.
    return [i.gather() if isinstance(i, DeviceValue) else i for i in idx]


def _positions(shape: tuple[int, ...]) -> np.ndarray:
    n = int(np.prod(shape))
    dtype = np.int32 if n < 2**31 - 1 else np.int64
    return np.arange(n, dtype=dtype).reshape(shape, order="F")


class _IndexUploads:
    """Device copies of recently used index arrays, keyed by their contents.

    A loop that indexes with the same ranges every iteration
    (``U(2:end-1, 2:end-1)``, a mask computed once) uploads each index once:
    index buffers are only ever read by the gather/scatter hooks. Bounded by
    entries and bytes; least recently used first out; entries of another
    provider, or invalidated by a device reset, are never returned; emptied
    when the top-level command ends (``hints.command_end_hooks``).
    """

    MAX_ENTRIES = 64
    MAX_BYTES = 64 << 20

    def __init__(self) -> None:
        self._entries: OrderedDict[tuple, GpuArray] = OrderedDict()
        self._bytes = 0

    def get(self, p: AccelProvider, flat: np.ndarray, shape: tuple[int, ...]) -> GpuArray:
        key = (id(p), shape, flat.dtype.str,
               hashlib.blake2b(flat.data, digest_size=16).digest())
        hit = self._entries.get(key)
        if hit is not None and hit.provider is p and hit.is_valid:
            self._entries.move_to_end(key)
            return hit
        handle = p.upload(HostTensor(flat, shape, class_of(flat)))
        g = wrap_handle(handle, class_of(flat), p)
        if flat.nbytes <= self.MAX_BYTES // 4:
            self._entries[key] = g
            self._bytes += flat.nbytes
            while len(self._entries) > self.MAX_ENTRIES or self._bytes > self.MAX_BYTES:
                _, old = self._entries.popitem(last=False)
                self._bytes -= old.numel * np.dtype(old.handle.dtype).itemsize
        return g


    def clear(self) -> None:
        self._entries.clear()
        self._bytes = 0


_INDEX_UPLOADS = _IndexUploads()
hints.command_end_hooks.append(_INDEX_UPLOADS.clear)


def _upload_index(p: AccelProvider, lin: np.ndarray) -> GpuArray:
    """0-based positions on the device (int32 when they fit; may raise
    Unsupported); an index used recently is not uploaded again."""
    if lin.dtype != np.int32 and (lin.size == 0 or int(lin.max()) < 2**31 - 1):
        lin = lin.astype(np.int32)
    flat = np.ascontiguousarray(lin.reshape(-1, order="F"))
    return _INDEX_UPLOADS.get(p, flat, tuple(lin.shape))


def index_on_device(p: AccelProvider, v: Any, idx: list[Any], fuses: bool = False) -> Any:
    """``v(idx...)`` as a gpuArray (host fallback when the provider lacks
    ``index_gather`` or ``v`` is not one of its arrays); ``fuses``: a read
    of ranges becomes a lazy node fused into its consumer."""
    from matfuse.runtime import indexing

    if isinstance(v, GpuArray) and v.provider is p and any(is_device_mask(p, i) for i in idx):
        masked = _index_with_device_mask(p, v, idx)
        if masked is not None:
            return masked
    if isinstance(v, GpuArray) and v.provider is p and len(idx) == 1 \
            and is_device_subscript(p, idx[0]):
        read = read_at(p, v, idx[0])
        if read is not None:
            return read
    host_idx = _host_index(idx)
    if isinstance(v, GpuArray) and v.provider is p:
        column = _colon_all(p, v, host_idx)
        if column is not None:
            return column
        selection = select(tuple(v.shape), host_idx)
        if selection is not None and fuses:
            lazy = lazy_range_read(p, v, selection)
            if lazy is not None:
                return lazy
        if selection is not None:
            try:
                lin = device_positions(p, selection, lambda row: _upload_index(p, row.reshape(1, -1)))
                h = p.index_gather(v.valid_handle(), lin.handle, selection.out_shape)
                return wrap_handle(h, v.matlab_class, p)
            except Unsupported:
                pass
        selected = to_array(indexing.paren_get(_positions(v.shape), host_idx))
        out_shape = tuple(selected.shape)
        if selected.size == 0:
            empty = np.zeros(out_shape, dtype=np.dtype(v.handle.dtype))
            return wrap_handle(p.upload(HostTensor.from_array(empty, v.matlab_class)),
                               v.matlab_class, p)
        try:
            lin = _upload_index(p, selected)
            h = p.index_gather(v.valid_handle(), lin.handle, out_shape)
            return wrap_handle(h, v.matlab_class, p)
        except Unsupported:
            pass
    count_fallback("index", call_form("subsref", [v] + list(idx)))
    host = v.gather() if isinstance(v, DeviceValue) else v
    result = indexing.paren_get(host, host_idx)
    return upload_value(canonical(result), p)


def _index_with_device_mask(p: AccelProvider, v: GpuArray, idx: list[Any]) -> GpuArray | None:
    """``v(mask)`` / ``v(mask, :)`` with a logical gpuArray subscript, the
    mask kept on the device (None: the general path, which gathers it)."""
    if any(isinstance(i, DeviceValue) and not is_device_mask(p, i) for i in idx):
        return None
    try:
        if len(idx) == 1:
            return read_masked(p, v, idx[0])
        selection = select(tuple(v.shape), list(idx), True, p)
        if selection is None:
            return None
        lin = device_positions(p, selection, lambda row: _upload_index(p, row.reshape(1, -1)))
        return wrap_handle(p.index_gather(v.valid_handle(), lin.handle, selection.out_shape),
                           v.matlab_class, p)
    except Unsupported:
        return None


def _assign_with_device_mask(p: AccelProvider, v: GpuArray, idx: list[Any], rhs: Any,
                             inplace: bool) -> GpuArray | None:
    """``v(mask) = rhs`` with a logical gpuArray mask of ``numel(v)``
    elements: a scalar without any read-back, an array at the mask's
    positions (one count read back, which must equal ``numel(rhs)``)."""
    mask = idx[0]
    if len(idx) != 1 or not is_device_mask(p, mask) or mask.numel != v.numel:
        return None
    try:
        if type(rhs) is float or (type(rhs) is bool and v.matlab_class == "logical"):
            if type(rhs) is float:
                return assign_scalar_masked(p, v, mask, rhs)
            return None
        lin = mask_positions(p, mask)
        rhs_numel = int(np.prod(shape_of(rhs)))
        if lin.numel == 0 or (rhs_numel != lin.numel and rhs_numel != 1):
            return None
        return _scatter_positions(p, v, lin, lin.numel, rhs, inplace)
    except Unsupported:
        return None


def _assign_at_device_subscript(p: AccelProvider, v: GpuArray, sub: GpuArray, rhs: Any,
                                inplace: bool) -> GpuArray | None:
    """``v(k) = rhs`` with a numeric gpuArray ``k`` inside ``v`` (growth and
    invalid subscripts: None); ``rhs`` a scalar or ``numel(k)`` values."""
    rhs_numel = int(np.prod(shape_of(rhs)))
    if rhs_numel not in (1, sub.numel):
        return None
    positions = linear_positions(p, sub, v.numel)
    if positions is None:
        return None
    try:
        if rhs_numel > 1:
            # a repeated subscript takes its last value (MATLAB's order), which
            # a parallel scatter does not promise: keep each position's last
            positions, rhs = last_writes(positions, rhs)
        return _scatter_positions(p, v, positions, positions.numel, rhs, inplace)
    except Unsupported:
        return None


def scatter_at(v: GpuArray, positions: GpuArray, rhs: Any) -> GpuArray:
    """A copy of ``v`` with ``rhs`` (a scalar or one value per position)
    written at 0-based int32 positions that device code computed and
    guarantees in range (no host check, no read-back)."""
    p = v.provider
    written = _scatter_positions(p, v, positions, positions.numel, rhs, False)
    if written is None:
        raise Unsupported("scatter_at: operands of another provider")
    return written


def _colon_all(p: AccelProvider, v: GpuArray, host_idx: list[Any]) -> GpuArray | None:
    """``v(:)``: a reshape to one column, without building and uploading an
    index of every position (256 MB for the 4e6 x 16 ``Z(:)`` of stats.m)."""
    from matfuse.runtime._subscripts import is_colon

    if len(host_idx) != 1 or not is_colon(host_idx[0]) or v.numel == 0:
        return None
    try:
        return wrap_handle(p.reshape(v.valid_handle(), (v.numel, 1)), v.matlab_class, p)
    except Unsupported:
        return None


def _same_class(v: GpuArray, rhs: Any) -> bool:
    t = type(rhs)
    if isinstance(rhs, GpuArray):
        return rhs.matlab_class == v.matlab_class and rhs.is_complex() == v.is_complex()
    if t is float:
        return v.matlab_class in ("double", "single") and not v.is_complex()
    if t is bool:
        return v.matlab_class == "logical"
    if t is np.ndarray:
        return class_of(rhs) == v.matlab_class and (rhs.dtype.kind == "c") == v.is_complex()
    return False


def assign_on_device(p: AccelProvider, v: Any, idx: list[Any], rhs: Any,
                     inplace: bool = False) -> Any:
    """New value after ``v(idx...) = rhs`` (a gpuArray). ``inplace``: the
    caller guarantees ``v`` is not shared, so its buffer may be updated."""
    from matfuse.runtime import indexing

    if isinstance(v, GpuArray) and v.provider is p and rhs is not indexing.DELETE \
            and _same_class(v, rhs) and len(idx) == 1 and is_device_mask(p, idx[0]):
        masked = _assign_with_device_mask(p, v, idx, rhs, inplace)
        if masked is not None:
            return masked
    if isinstance(v, GpuArray) and v.provider is p and rhs is not indexing.DELETE \
            and _same_class(v, rhs) and len(idx) == 1 and is_device_subscript(p, idx[0]):
        written = _assign_at_device_subscript(p, v, idx[0], rhs, inplace)
        if written is not None:
            return written
    host_idx = _host_index(idx)
    if isinstance(v, GpuArray) and v.provider is p and rhs is indexing.DELETE:
        result = _delete(p, v, host_idx)
        if result is not None:
            return result
    elif isinstance(v, GpuArray) and v.provider is p and _same_class(v, rhs):
        result = _scatter(p, v, host_idx, rhs, inplace)
        if result is None:
            grown = _grow(p, v, host_idx, rhs)
            result = None if grown is None else _scatter(p, grown, host_idx, rhs, True)
        if result is not None:
            return result
    count_fallback("index_assign", call_form("subsasgn", [v] + list(idx) + [rhs]))
    host_v = v.gather() if isinstance(v, DeviceValue) else v
    host_rhs = rhs.gather() if isinstance(rhs, DeviceValue) else rhs
    return upload_value(canonical(indexing.paren_set(host_v, host_idx, host_rhs)), p)


def _scatter(p: AccelProvider, v: GpuArray, host_idx: list[Any], rhs: Any,
             inplace: bool) -> GpuArray | None:
    from matfuse.runtime import indexing

    rhs_shape = shape_of(rhs)
    selection = select(tuple(v.shape), host_idx, check_bounds=False)
    if selection is not None and (rhs_shape == (1, 1) or rhs_fits(selection, rhs_shape)):
        try:
            lin = device_positions(p, selection, lambda row: _upload_index(p, row.reshape(1, -1)))
        except Unsupported:
            lin = None
        if lin is not None:
            return _scatter_positions(p, v, lin, selection.size, rhs, inplace)
    positions = _positions(v.shape)
    # Probe with a stand-in rhs of the same shape: raises MATLAB's errors and
    # tells us whether the assignment grows the array.
    probe_rhs = 0.0 if rhs_shape == (1, 1) else np.zeros(rhs_shape)
    probe = indexing.paren_set(positions.astype(np.float64), host_idx, probe_rhs)
    if tuple(to_array(probe).shape) != tuple(v.shape):
        return None
    selected = to_array(indexing.paren_get(positions, host_idx))
    return _scatter_selected(p, v, selected, rhs, inplace)


def _delete(p: AccelProvider, v: GpuArray, host_idx: list[Any]) -> GpuArray | None:
    """``v(idx) = []``: the kept elements gathered on the device (the
    runtime's deletion of a position array says which, and raises MATLAB's
    errors)."""
    from matfuse.runtime import indexing

    kept = to_array(indexing.paren_set(_positions(v.shape), host_idx, indexing.DELETE))
    if kept.size == 0:
        empty = np.zeros(kept.shape, dtype=np.dtype(v.handle.dtype))
        return wrap_handle(p.upload(HostTensor.from_array(empty, v.matlab_class)),
                           v.matlab_class, p)
    try:
        lin = _upload_index(p, kept)
        h = p.index_gather(v.valid_handle(), lin.handle, tuple(kept.shape))
    except Unsupported:
        return None
    return wrap_handle(h, v.matlab_class, p)


def _grow(p: AccelProvider, v: GpuArray, host_idx: list[Any], rhs: Any) -> GpuArray | None:
    """The array that ``v(idx) = rhs`` grows ``v`` into, made on the device:
    zeros of the new size with the old elements scattered to their new
    positions (the caller then writes ``rhs``). None when the assignment does
    not grow ``v`` or the provider cannot."""
    from matfuse.runtime import indexing

    if v.is_complex() or v.matlab_class not in ("double", "single", "logical"):
        return None
    rhs_shape = shape_of(rhs)
    probe_rhs = 0.0 if rhs_shape == (1, 1) else np.zeros(rhs_shape)
    marked = to_array(indexing.paren_set(_positions(v.shape).astype(np.float64) + 1.0,
                                         host_idx, probe_rhs))
    if tuple(marked.shape) == tuple(v.shape):
        return None
    new_shape = tuple(marked.shape)
    if len(v.shape) > len(new_shape):
        return None
    # The old elements keep their subscripts: a block of plain ranges in the
    # new array, filled from the old buffer in its column-major order.
    old_extents = tuple(v.shape) + (1,) * (len(new_shape) - len(v.shape))
    strides = strides_of(new_shape)
    block = selection_of([plain_axis(n, strides[d]) for d, n in enumerate(old_extents)])
    try:
        out = wrap_handle(p.fill(new_shape, 0.0, v.handle.dtype), v.matlab_class, p)
        if v.numel:
            dest = device_positions(p, block, None)
            out = wrap_handle(p.index_scatter(out.handle, dest.handle, v.valid_handle()),
                              v.matlab_class, p)
    except Unsupported:
        return None
    return out


def _scatter_selected(p: AccelProvider, v: GpuArray, selected: np.ndarray,
                      rhs: Any, inplace: bool) -> GpuArray | None:
    if selected.size == 0:
        return v
    try:
        lin = _upload_index(p, selected)
    except Unsupported:
        return None
    return _scatter_positions(p, v, lin, int(selected.size), rhs, inplace)


def _scatter_positions(p: AccelProvider, v: GpuArray, lin: GpuArray, count: int,
                       rhs: Any, inplace: bool) -> GpuArray | None:
    """Write ``rhs`` at the ``count`` device positions ``lin`` of ``v``."""
    keep: GpuArray | None = None
    if type(rhs) is float or type(rhs) is bool:
        values: Any = float(rhs)
    elif type(rhs) is np.ndarray and rhs.size == 1 and count > 1:
        values = rhs.reshape(-1)[0].item()
    elif isinstance(rhs, GpuArray):
        if rhs.provider is not p:
            return None
        values = rhs.valid_handle() if rhs.numel != 1 or count == 1 else None
        if values is None:
            return None
    else:
        keep = upload_value(rhs, p)
        if keep.provider is not p:
            return None
        values = keep.handle
    # A buffer that a fusion graph may still read (v.node set) is never
    # written in place: the pending graph must see the old values.
    if inplace and v.node is None and not is_shared(v):
        try:
            p.index_scatter_inplace(v.valid_handle(), lin.handle, values)
            v.host_scalar = None
            return v
        except Unsupported:
            pass
    try:
        h = p.index_scatter(v.valid_handle(), lin.handle, values)
    except Unsupported:
        return None
    return wrap_handle(h, v.matlab_class, p)
