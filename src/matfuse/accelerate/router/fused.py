"""Fused forms of device operations: lazy graph nodes for the fusion engine.

The router (``route.py``, ``placement.py``) calls these when the provider
fuses, before its eager provider hooks. Each returns a lazy gpuArray, or
None when the call form is not fusable (flags such as ``'omitnan'``,
integer classes, complex data, matrix operators with matrix operands ...),
in which case the eager path runs unchanged.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.fusion.lazy import (
    lazy_binary,
    lazy_cast,
    lazy_generator,
    lazy_reduce,
    lazy_scalar,
    lazy_unary,
)
from matfuse.accelerate.gpuarray import GpuArray, wrap_handle
from matfuse.accelerate.router import reductions
from matfuse.accelerate.router.index_positions import lazy_range_read
from matfuse.accelerate.router.rearrange_positions import rearrangement_selection
from matfuse.accelerate_api import Unsupported
from matfuse.runtime.registry import Builtin
from matfuse.runtime.values import DeviceValue, shape_of

# Matrix operators that are elementwise when one operand is a scalar.
_SCALAR_FORMS = {"*": "times", "mtimes": "times", "/": "rdivide", "mrdivide": "rdivide",
                 "\\": "ldivide", "mldivide": "ldivide", "^": "power", "mpower": "power"}
_FUSED_REDUCTIONS = ("sum", "mean", "prod", "max", "min")
# Rearrangements that read ranges of their argument (a fused read).
_RANGE_REARRANGEMENTS = frozenset({"circshift", "flip", "fliplr", "flipud", "repmat"})


def _is_scalar(v: Any) -> bool:
    return shape_of(v) == (1, 1)


def _elementwise_form(name: str, a_scalar: bool, b_scalar: bool) -> bool:
    """Whether matrix operator ``name`` is elementwise for these operands:
    ``s*A``/``A*s``, ``A/s``, ``s\\A``, ``s^t`` (otherwise it is linear algebra)."""
    if name in ("*", "mtimes"):
        return a_scalar or b_scalar
    if name in ("/", "mrdivide"):
        return b_scalar
    if name in ("\\", "mldivide"):
        return a_scalar
    return a_scalar and b_scalar


def binary(p: Any, name: str, a: Any, b: Any) -> Any:
    """Lazy ``a name b`` (``name``: operator symbol or builtin name) or None."""
    if name in _SCALAR_FORMS:
        if not _elementwise_form(name, _is_scalar(a), _is_scalar(b)):
            return None
        name = _SCALAR_FORMS[name]
    return lazy_binary(name, a, b, p)


def unary(p: Any, name: str, a: Any) -> Any:
    return lazy_unary(name, a, p)


def builtin(p: Any, b: Builtin, args: list[Any], nargout: int) -> Any:
    """Lazy result of builtin ``b`` on device arguments, or None."""
    if nargout > 1:
        return None
    name = b.name
    if name in ("single", "double") and len(args) == 1:
        return lazy_cast(args[0], name, p)
    if name in _RANGE_REARRANGEMENTS:
        return _rearrangement(p, name, args)
    spec = b.gpu
    if spec is None:
        return None
    op = spec.op or name
    if spec.hook == "elem_unary" and len(args) == 1:
        return lazy_unary(op, args[0], p)
    if len(args) == 2 and spec.hook in ("elem_binary", "reduce") and op in ("max", "min", "atan2", "hypot", "mod", "rem"):
        return lazy_binary(op, args[0], args[1], p)
    if spec.hook == "elem_binary" and len(args) == 2:
        return lazy_binary(op, args[0], args[1], p)
    if op in _FUSED_REDUCTIONS and (spec.hook == "reduce" or op in ("max", "min")):
        # max(x), max(x, [], dim ...): the two-argument max is elementwise (above)
        return _reduction(p, op, args)
    return None


def _rearrangement(p: Any, name: str, args: list[Any]) -> Any:
    """``circshift``/``flip``/``repmat`` of a gpuArray with host arguments
    as a fused read of ranges (None: another form; the eager path decides,
    with MATLAB's errors)."""
    x = args[0]
    if not isinstance(x, GpuArray) or x.provider is not p \
            or any(isinstance(a, DeviceValue) for a in args[1:]):
        return None
    selection = rearrangement_selection(name, tuple(x.shape), list(args[1:]))
    return lazy_range_read(p, x, selection) if selection is not None else None


def _reduction(p: Any, op: str, args: list[Any]) -> Any:
    """``sum/mean/prod/max/min`` over a dim, a vecdim or ``'all'`` with the
    outtype and nanflag words: one reduction node over the array seen as
    ``A x R x C`` when the reduced dims are one block in memory
    (``reductions.reduced_block``), else over the array permuted on the
    device to make them one. Integer data, ``'includenan'`` for
    ``max``/``min`` and logical ``'native'`` are left to the eager path."""
    form = reductions.read_form(op, args)
    x = args[0]
    if form is None or not isinstance(x, GpuArray):
        return None
    cls = x.matlab_class
    if cls == "logical":
        if op in ("max", "min", "prod") or form.outtype == "native":
            return None
    elif cls not in ("double", "single"):
        return None
    if op in ("max", "min") and not form.omitnan:
        return None
    shape = tuple(x.shape)
    block = reductions.reduced_block(shape, form.dims)
    out_shape = None
    if block is None and form.dims is not None:
        moved = _reduced_dims_last(p, x, form.dims)
        if moved is None:
            return None
        x, block, out_shape = moved
    if form.outtype == "double" and cls == "single":
        x = lazy_cast(x, "double", p)
        if x is None:
            return None
    if block == ():
        # only singleton dims are reduced: the data, in the result's class
        return x if x.matlab_class != "logical" else lazy_cast(x, "double", p)
    if form.omitnan and op in ("sum", "mean", "prod") and x.matlab_class != "logical":
        return _omitting_nan(p, op, x, block, out_shape)
    return lazy_reduce(op, x, block, p, out_shape)


def _reduced_dims_last(p: Any, x: GpuArray, dims: tuple[int, ...]
                       ) -> tuple[GpuArray, tuple[int, ...], tuple[int, ...]] | None:
    """``x`` permuted on the device so that the reduced ``dims`` follow the
    kept ones (kept dims in their order), the reduced block of the permuted
    array, and the MATLAB shape of the reduction; None when the provider
    cannot permute (the eager path then runs)."""
    shape = tuple(x.shape)
    reduced = [d for d in dims if d < len(shape) and shape[d] != 1]
    kept = [d for d in range(len(shape)) if d not in reduced]
    try:
        handle = p.permute(x.valid_handle(), kept + reduced)
    except Unsupported:
        return None
    moved = wrap_handle(handle, x.matlab_class, p)
    out_shape = reductions.matlab_shape(tuple(1 if d in dims else n for d, n in enumerate(shape)))
    return moved, tuple(range(len(kept), len(shape))), out_shape


def _omitting_nan(p: Any, op: str, x: GpuArray, dims: tuple[int, ...] | None,
                  out_shape: tuple[int, ...] | None) -> Any:
    """``sum/prod/mean(x, dims, 'omitnan')`` as fused nodes. A NaN becomes
    the op's identity through ``max(x, 0) + min(x, 0)``, which is ``x``
    exactly for every other value and 0 for NaN (MATLAB's ``max`` and
    ``min`` skip NaN); a product adds ``isnan(x)`` to make it 1. A mean
    divides by the count of non-NaN values (NaN for an all-NaN slice, as
    MATLAB)."""
    nan_free = lazy_binary("plus", lazy_binary("max", x, 0.0, p), lazy_binary("min", x, 0.0, p), p)
    if nan_free is None:
        return None
    isnan = lazy_unary("isnan", x, p)
    if op == "prod":
        return lazy_reduce("prod", lazy_binary("plus", nan_free, isnan, p), dims, p, out_shape)
    total = lazy_reduce("sum", nan_free, dims, p, out_shape)
    if op == "sum" or total is None:
        return total
    present = lazy_cast(lazy_unary("not", isnan, p), x.matlab_class, p)
    count = lazy_reduce("sum", present, dims, p, out_shape)
    return None if count is None else lazy_binary("rdivide", total, count, p)


def fill(p: Any, shape: tuple[int, ...], value: Any, cls: str) -> Any:
    """Lazy constant array (``zeros/ones/nan/inf`` on the device) or None."""
    if not isinstance(value, (float, int, np.floating, np.integer, np.bool_)):
        return None   # complex fills are not generated
    return lazy_generator("fill", tuple(shape), cls, p, (float(value),))


def random(p: Any, kind: str, shape: tuple[int, ...], cls: str) -> Any:
    """Lazy ``rand``/``randn`` from the device Philox stream, or None."""
    n = 1
    for d in shape:
        n *= d
    if n == 0 or cls not in ("double", "single"):
        return None
    from matfuse.runtime import gpu_rng  # (NumPy's random module: loaded when first drawn)

    key, counter = gpu_rng.take(n, cls)
    return lazy_generator(kind, tuple(shape), cls, p, (key, counter))


def scalar(p: Any, value: float) -> Any:
    """A 1x1 double as a lazy constant."""
    return lazy_scalar(value, p)


def linspace(p: Any, start: float, stop: float, n: int, cls: str) -> Any:
    if n < 1:
        return None
    return lazy_generator("linspace", (1, n), cls, p, (start, stop))
