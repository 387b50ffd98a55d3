"""Element positions of ``g(idx...)`` generated on the device.

Indexing a gpuArray needs the 0-based linear positions of the selected
elements on the device (``index_gather`` / ``index_scatter`` read them). A
subscript is resolved on the host with the runtime's own rules and errors
(``_subscripts.positions``: O(length of the subscript), never O(numel)), and
then described per dimension: a scalar folds into a base offset, a colon or
an arithmetic progression (``2:end-1``, ``end:-1:1``, a loop counter ``k``)
becomes a device ``colon`` of int32 (uniforms only, no buffer from the host),
and only an irregular subscript list is uploaded (one dimension's worth of
positions, kept by the content cache of ``indexing``). A selection made of
ranges only (slices, circshift, flip, repmat) is one ``range_positions``
kernel from uniforms; otherwise the dimensions are combined by a broadcast
``plus`` on the device. Either way the positions of a slice
``U(2:end-1, 2:end-1)`` or of ``y(k)`` in a loop never cross the bus.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from matfuse.accelerate.fusion.graph import range_gather_node
from matfuse.accelerate.fusion.lazy import lazy_array
from matfuse.accelerate.gpuarray import GpuArray, wrap_handle
from matfuse.accelerate_api import AccelProvider, Unsupported
from matfuse.runtime._subscripts import folded_shape, is_colon, linear_result_shape, positions

_INT32_LIMIT = 2**31 - 1


@dataclass(frozen=True)
class Axis:
    """The selected positions along one subscript, already multiplied by the
    subscript's stride: ``first + k*step`` for k < count, or ``values``."""

    first: int
    step: int
    count: int
    values: np.ndarray | None = None
    #: int32 positions already on the device (a logical gpuArray subscript)
    device: Any = None
    #: a wrapped range (circshift, repmat): ``((first + k*step) mod modulus) * scale``
    modulus: int = 0
    scale: int = 1


@dataclass
class Selection:
    """What ``g(idx...)`` selects: its axes and the shape MATLAB gives the
    result (for an assignment: the shape the right-hand side must match)."""

    axes: list[Axis]
    counts: tuple[int, ...]
    out_shape: tuple[int, ...]
    linear: bool

    @property
    def size(self) -> int:
        n = 1
        for c in self.counts:
            n *= c
        return n


def _axis(pos: np.ndarray, stride: int) -> Axis:
    count = int(pos.size)
    first = int(pos[0]) * stride
    if count == 1:
        return Axis(first, 0, 1)
    step = int(pos[1]) - int(pos[0])
    if count == 2 or bool(np.all(np.diff(pos) == step)):
        return Axis(first, step * stride, count)
    return Axis(first, 0, count, (pos.astype(np.int64) * stride))


def _normalized(counts: list[int]) -> tuple[int, ...]:
    shape = list(counts)
    while len(shape) > 2 and shape[-1] == 1:
        shape.pop()
    return tuple(shape)


def select(shape: tuple[int, ...], idx: list[Any], check_bounds: bool = True,
           p: AccelProvider | None = None) -> Selection | None:
    """The selection of host subscripts ``idx`` into an array of ``shape``;
    raises MATLAB's index errors (with ``check_bounds``: out of range too).
    None when the positions are not expressible here (empty selections,
    more elements than int32 positions hold, a subscript beyond the array
    for an assignment, which grows it). With ``p``, a logical gpuArray of
    one dimension's length subscripts that dimension on the device."""
    from matfuse.accelerate.router.mask_index import is_device_mask, mask_axis_ok, mask_positions

    total = 1
    for d in shape:
        total *= d
    if not idx or total == 0 or total > _INT32_LIMIT:
        return None  # empty arrays: the general path (its shapes and errors)
    n = len(idx)
    if n == 1:
        sub = idx[0]
        if is_colon(sub):
            return Selection([Axis(0, 1, total)], (total,), (total, 1), True)
        pos, ishape = positions(sub, total, 0, 1, check_bounds)
        if pos.size == 0 or (not check_bounds and int(pos.max()) >= total):
            return None
        out_shape = tuple(linear_result_shape(tuple(shape), tuple(ishape), pos.size))
        return Selection([_axis(pos, 1)], (int(pos.size),), out_shape, True)
    dims = folded_shape(tuple(shape), n)
    axes: list[Axis] = []
    counts: list[int] = []
    stride = 1
    for k, sub in enumerate(idx):
        extent = int(dims[k])
        if is_colon(sub):
            if extent == 0:
                return None
            axes.append(Axis(0, stride, extent) if extent > 1 else Axis(0, 0, 1))
        elif p is not None and is_device_mask(p, sub):
            if not mask_axis_ok(sub, extent):
                return None
            positions_of_mask = mask_positions(p, sub, stride)
            if positions_of_mask.numel == 0:
                return None
            axes.append(Axis(0, 0, positions_of_mask.numel, device=positions_of_mask))
        else:
            pos, _ = positions(sub, extent, k, n, check_bounds)
            if pos.size == 0 or (not check_bounds and int(pos.max()) >= extent):
                return None
            axes.append(_axis(pos, stride))
        counts.append(axes[-1].count)
        stride *= extent
    return Selection(axes, tuple(counts), _normalized(counts), False)


def rhs_fits(selection: Selection, rhs_shape: tuple[int, ...]) -> bool:
    """Whether a non-scalar right-hand side of ``rhs_shape`` fills the
    selection element for element in column-major order (MATLAB's rule:
    same number of elements; with several subscripts also the same
    non-singleton dimensions in order). Anything else takes the general
    path, which raises MATLAB's dimension-mismatch errors."""
    numel = 1
    for d in rhs_shape:
        numel *= d
    if numel != selection.size:
        return False
    if selection.linear:
        return True
    return [d for d in rhs_shape if d != 1] == [c for c in selection.counts if c != 1]


def device_positions(p: AccelProvider, selection: Selection,
                     upload_list: Callable[[np.ndarray], GpuArray] | None) -> Any:
    """The selection's int32 positions on the device, in the result's
    column-major order (may raise Unsupported). ``upload_list`` puts an
    irregular axis's positions on the device (a row); None: only ranges.
    A selection of ranges only is one ``range_positions`` kernel; otherwise
    (or on a provider without that hook) per-axis colons are combined by
    broadcast plus."""
    base = sum(a.first for a in selection.axes
               if a.count == 1 and a.device is None and not a.modulus)
    varying = [(k, a) for k, a in enumerate(selection.axes)
               if a.count > 1 or a.device is not None or a.modulus]
    if not varying:
        return wrap_handle(p.fill((1, 1), float(base), "int32"), "int32", p)
    ndim = max(len(selection.counts), 2)
    if all(a.values is None and a.device is None for a in selection.axes):
        shape = tuple(selection.counts) + (1,) * (ndim - len(selection.counts))
        axes = [(a.first, a.step, a.modulus, a.scale) for a in selection.axes]
        axes += [(0, 0, 0, 1)] * (ndim - len(axes))
        try:
            return wrap_handle(p.range_positions(axes, 0, shape), "int32", p)
        except Unsupported:
            pass  # composed from colons below
    acc: GpuArray | None = None
    for j, (k, axis) in enumerate(varying):
        offset = base if j == 0 else 0
        if axis.device is not None:
            row = axis.device
            if offset:
                row = wrap_handle(p.elem_binary("plus", row.handle, float(offset), "int32"),
                                  "int32", p)
        elif axis.modulus:
            row = _wrapped_range(p, axis, offset)
        elif axis.values is not None:
            if upload_list is None:
                raise Unsupported("irregular subscript list without an upload")
            row = upload_list(axis.values + offset)
        else:
            row = wrap_handle(p.colon(float(axis.first + offset), float(axis.step), axis.count,
                                      "int32"), "int32", p)
        along = [1] * ndim
        along[k] = axis.count
        if tuple(along) != tuple(row.shape):
            row = wrap_handle(p.reshape(row.handle, tuple(along)), "int32", p)
        acc = row if acc is None else wrap_handle(
            p.elem_binary("plus", acc.handle, row.handle, "int32"), "int32", p)
    return acc  # (the hooks take the result's shape separately)


_FUSED_READ_CLASSES = frozenset({"double", "single", "logical"})


def lazy_range_read(p: AccelProvider, v: GpuArray, selection: Selection) -> GpuArray | None:
    """``v`` at a selection made of ranges only (a slice such as
    ``U(2:end-1, 2:end-1)``, circshift, flip, repmat) as a lazy node: the
    read fuses into the kernel of whatever consumes it, so a stencil's
    shifted reads cost no positions buffer and no kernel of their own.
    A lazy ``v`` is computed first (a fused read never re-evaluates an
    expression at other positions). None: another kind of selection, an
    empty one, a class the fusion IR does not hold, or a complex ``v``."""
    if v.matlab_class not in _FUSED_READ_CLASSES or selection.size == 0 \
            or v.numel >= _INT32_LIMIT:
        return None
    if any(a.values is not None or a.device is not None for a in selection.axes):
        return None
    v.valid_handle()
    if v.is_complex():
        return None
    source = v.fusion_node()
    axes = tuple((a.first, a.step, a.modulus, a.scale) for a in selection.axes)
    node = range_gather_node(source, axes, tuple(selection.counts), selection.out_shape)
    return lazy_array(node, v.matlab_class, p)


def strides_of(shape: tuple[int, ...]) -> list[int]:
    """Column-major strides of ``shape`` (in elements)."""
    strides, stride = [], 1
    for d in shape:
        strides.append(stride)
        stride *= d
    return strides


def plain_axis(extent: int, stride: int) -> Axis:
    """Every subscript ``0..extent-1`` of a dimension with ``stride``."""
    return Axis(0, stride, extent) if extent > 1 else Axis(0, 0, 1)


def selection_of(axes: list[Axis]) -> Selection:
    """The N-D selection of one axis per dimension (MATLAB's result shape:
    trailing singleton dimensions dropped)."""
    return Selection(axes, tuple(a.count for a in axes),
                     _normalized([a.count for a in axes]), False)


def wrapped_axis(first: int, count: int, modulus: int, scale: int) -> Axis:
    """The axis ``((first + k) mod modulus) * scale`` for k < count."""
    return Axis(first, 1, count, modulus=modulus, scale=scale)


def _wrapped_range(p: AccelProvider, axis: Axis, offset: int) -> Any:
    """A wrapped range's positions on the device: colon, mod, scale (and the
    selection's base offset), int32 arithmetic on uniforms."""
    steps = [("mod", float(axis.modulus))]
    if axis.scale != 1:
        steps.append(("times", float(axis.scale)))
    if offset:
        steps.append(("plus", float(offset)))
    row = wrap_handle(p.colon(float(axis.first), float(axis.step), axis.count, "int32"), "int32", p)
    for op, operand in steps:
        row = wrap_handle(p.elem_binary(op, row.handle, operand, "int32"), "int32", p)
    return row
