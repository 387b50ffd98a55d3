"""Device paths of data-movement and search builtins.

* circshift, flip and repmat: per-dimension wrapped or reversed ranges
  whose positions are generated on the device (``rearrange_positions``).
* Other rearrangements (reshape, permute, rot90 ...):
  the runtime's own implementation runs on an int32 array of element
  positions (so sizes, argument parsing and errors are MATLAB's), and the
  resulting positions drive the provider's ``index_gather``. The data never
  leaves the device.
* sort, find, concatenation builtins, polyval, fft: direct provider hooks
  for their common call forms.
Every other form returns None: the dispatcher's counted host fallback.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.router.index_positions import device_positions
from matfuse.accelerate.router.indexing import _positions, _upload_index
from matfuse.accelerate.router.rearrange_positions import rearrangement_selection
from matfuse.accelerate.router.ops import try_cat, try_concat
from matfuse.accelerate.gpuarray import GpuArray, wrap_handle
from matfuse.accelerate_api import AccelProvider, HostTensor, Unsupported
from matfuse.runtime.registry import Builtin
from matfuse.runtime.values import DeviceValue, is_char, to_array, to_str

REARRANGE = frozenset({"reshape", "repmat", "permute", "squeeze", "flip", "fliplr", "flipud",
                       "circshift", "rot90", "ipermute", "shiftdim"})


def _mine(p: AccelProvider, x: Any) -> bool:
    return isinstance(x, GpuArray) and x.provider is p


def try_rearrange(p: AccelProvider, b: Builtin, args: list[Any]) -> GpuArray | None:
    """``b(x, host args...)`` for a pure element rearrangement ``b``."""
    from matfuse.runtime.dispatcher import invoke

    x = args[0]
    if not _mine(p, x) or any(isinstance(a, DeviceValue) for a in args[1:]):
        return None
    if b.name == "reshape":
        shape = _plain_reshape_shape(x, args[1:])
        if shape is not None:
            try:
                return wrap_handle(p.reshape(x.valid_handle(), shape), x.matlab_class, p)
            except Unsupported:
                pass
    moved = _moved_without_positions(p, b.name, x, list(args[1:]))
    if moved is not None:
        return moved
    selection = rearrangement_selection(b.name, tuple(x.shape), list(args[1:]))
    if selection is not None:
        try:
            lin = device_positions(p, selection, None)
            return wrap_handle(p.index_gather(x.valid_handle(), lin.handle, selection.out_shape),
                               x.matlab_class, p)
        except Unsupported:
            pass
    positions = _positions(x.shape)
    result = to_array(invoke(b, [positions] + list(args[1:]), 1, None)[0])
    if result.dtype != positions.dtype:
        return None
    try:
        if result.size == 0:
            empty = np.zeros(result.shape, dtype=np.dtype(x.handle.dtype))
            return wrap_handle(p.upload(HostTensor.from_array(empty, x.matlab_class)),
                               x.matlab_class, p)
        lin = _upload_index(p, result)
        h = p.index_gather(x.valid_handle(), lin.handle, tuple(result.shape))
    except Unsupported:
        return None
    return wrap_handle(h, x.matlab_class, p)


def _plain_reshape_shape(x: GpuArray, dims: list[Any]) -> tuple[int, ...] | None:
    """Target shape of ``reshape(x, m, n, ...)`` / ``reshape(x, [m n ...])``
    with explicit sizes whose product is ``numel(x)``; None for ``[]``
    placeholders and every error case (the general path decides those)."""
    if len(dims) == 1 and type(dims[0]) is np.ndarray and dims[0].dtype.kind in "fiu" \
            and dims[0].ndim == 2 and dims[0].shape[0] == 1 and dims[0].size >= 2:
        sizes = [float(d) for d in dims[0].reshape(-1)]
    elif len(dims) >= 2 and all(type(d) is float for d in dims):
        sizes = list(dims)
    else:
        return None
    if any(s < 0 or s != int(s) for s in sizes) or int(np.prod(sizes)) != x.numel or x.numel == 0:
        return None
    out = [int(s) for s in sizes]
    while len(out) > 2 and out[-1] == 1:
        out.pop()
    return tuple(out)


def _order_of(arg: Any, rank: int) -> list[int] | None:
    """0-based dimension order of ``permute(x, order)`` (a permutation of at
    least ``rank`` dimensions), or None (the host raises MATLAB's errors)."""
    if type(arg) is not np.ndarray or arg.dtype.kind not in "fiu" or arg.size < rank:
        return None
    order = [float(d) for d in arg.reshape(-1)]
    if any(d != int(d) for d in order) or sorted(int(d) for d in order) != list(range(1, len(order) + 1)):
        return None
    return [int(d) - 1 for d in order]


def _moved_without_positions(p: AccelProvider, name: str, x: GpuArray,
                             args: list[Any]) -> GpuArray | None:
    """``squeeze`` (a reshape), ``permute``/``ipermute`` (the provider's
    permute) and ``rot90`` (a transpose and flips: ranges) without a
    positions array made on the host; None for other builtins and forms."""
    from matfuse.accelerate.router.compose_ops import call

    try:
        if name == "squeeze" and not args:
            shape = [d for d in x.shape if d != 1] if len(x.shape) > 2 else list(x.shape)
            shape = (shape + [1, 1])[:max(2, len(shape))]
            if len(shape) == 2 and len(x.shape) > 2 and shape[1] == 1 and x.shape[0] == 1:
                shape = [shape[0], 1]
            return wrap_handle(p.reshape(x.valid_handle(), tuple(shape)), x.matlab_class, p)
        if name in ("permute", "ipermute") and len(args) == 1:
            order = _order_of(args[0], len(x.shape))
            if order is None:
                return None
            if name == "ipermute":
                order = [order.index(d) for d in range(len(order))]
            return wrap_handle(p.permute(x.valid_handle(), order), x.matlab_class, p)
        if name == "rot90" and len(x.shape) == 2 and len(args) <= 1:
            turns = 1.0 if not args else args[0]
            if type(turns) is not float or turns != int(turns):
                return None
            turns = int(turns) % 4
            if turns == 0:
                return x
            if turns == 2:
                return call("flipud", call("fliplr", x))
            flipped = wrap_handle(p.permute(x.valid_handle(), [1, 0]), x.matlab_class, p)
            return call("flipud" if turns == 1 else "fliplr", flipped)
    except Unsupported:
        return None
    return None


_SORTED_IN_DOUBLE = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "logical")


def try_sort(p: AccelProvider, args: list[Any], nargout: int) -> list[Any] | None:
    """``sort(x)``, ``sort(x, dim)``, ``sort(x, 'descend')``, ``sort(x, dim, mode)``
    of real double/single arrays; ``[B, I]`` too."""
    x = args[0]
    if _mine(p, x) and x.matlab_class in _SORTED_IN_DOUBLE and not x.is_complex():
        # integers up to 32 bits and logicals: sorted in double (exact),
        # the values converted back
        from matfuse.accelerate.router.ops import try_cast

        as_double = try_cast(p, x, "double")
        out = None if as_double is None else try_sort(p, [as_double] + list(args[1:]), nargout)
        if out is None:
            return None
        values = try_cast(p, out[0], x.matlab_class)
        return None if values is None else [values] + out[1:]
    if not _mine(p, x) or x.matlab_class not in ("double", "single") or x.is_complex() \
            or 0 in x.shape:
        return None
    dim = next((i for i, d in enumerate(x.shape) if d != 1), 0)
    descending = False
    for a in args[1:]:
        if is_char(a) and to_str(a).lower() in ("ascend", "descend"):
            descending = to_str(a).lower() == "descend"
        elif type(a) is float and a >= 1 and a == int(a):
            dim = int(a) - 1
        else:
            return None
    if dim >= len(x.shape):
        return None
    try:
        values, index = p.sort(x.valid_handle(), dim, descending)
    except Unsupported:
        return None
    out = [wrap_handle(values, x.matlab_class, p), wrap_handle(index, "double", p)]
    return out[:max(nargout, 1)]


def try_find(p: AccelProvider, x: Any) -> GpuArray | None:
    """``k = find(x)`` (one output, no limit): a column, a row for row vectors,
    0x0 when a 0x0 array or a scalar has no nonzero."""
    if not _mine(p, x) or x.is_complex() or x.matlab_class not in ("double", "single", "logical"):
        return None
    try:
        h = p.find(x.valid_handle())
        col = wrap_handle(h, "double", p)
        is_row = len(x.shape) == 2 and x.shape[0] == 1
        if h.shape[0] == 0 and tuple(x.shape) in ((0, 0), (1, 1)):
            return _empty(p, (0, 0))
        if not is_row or h.shape[0] <= 1:
            if is_row and h.shape[0] == 0:
                return _empty(p, (1, 0))
            return col
        return wrap_handle(p.reshape(h, (1, h.shape[0])), "double", p)
    except Unsupported:
        return None


def _empty(p: AccelProvider, shape: tuple[int, ...]) -> GpuArray:
    return wrap_handle(p.upload(HostTensor.from_array(np.zeros(shape))), "double", p)


def try_concat_builtin(p: AccelProvider, op: str, args: list[Any]) -> GpuArray | None:
    """``horzcat``, ``vertcat`` and ``cat(1|2, ...)``."""
    if op == "horzcat":
        return try_concat(p, [list(args)])
    if op == "vertcat":
        return try_concat(p, [[a] for a in args])
    if op == "cat" and args and type(args[0]) is float and args[0] in (1.0, 2.0):
        parts = list(args[1:])
        joined = try_concat(p, [[a] for a in parts] if args[0] == 1.0 else [parts])
        if joined is not None:
            return joined
    if op == "cat" and args and type(args[0]) is float and args[0] >= 1 and args[0] == int(args[0]):
        return try_cat(p, int(args[0]), list(args[1:]))
    return None


def try_polyval(p: AccelProvider, args: list[Any]) -> GpuArray | None:
    """``polyval(p, x)`` with real double coefficients and values."""
    if len(args) != 2:
        return None
    coeffs, x = args
    if not _mine(p, x) or x.matlab_class != "double" or x.is_complex():
        return None
    if isinstance(coeffs, GpuArray):
        if coeffs.provider is not p or coeffs.matlab_class != "double" or coeffs.is_complex():
            return None
        handle = coeffs.valid_handle()
        keep = None
    elif type(coeffs) is np.ndarray and coeffs.dtype == np.float64 and coeffs.ndim == 2 \
            and 1 in coeffs.shape and coeffs.size > 0:
        keep = wrap_handle(p.upload(HostTensor.from_array(coeffs)), "double", p)
        handle = keep.handle
    else:
        return None
    try:
        return wrap_handle(p.polyval(handle, x.valid_handle()), "double", p)
    except Unsupported:
        return None


def try_fft(p: AccelProvider, args: list[Any]) -> GpuArray | None:
    """``fft(x)``, ``fft(x, n)``, ``fft(x, n, dim)`` of non-empty float arrays."""
    x = args[0]
    if not _mine(p, x) or x.matlab_class not in ("double", "single") or 0 in x.shape:
        return None
    n: int | None = None
    dim = next((i for i, d in enumerate(x.shape) if d != 1), 0)
    if len(args) >= 2:
        a = args[1]
        if type(a) is float and a >= 1 and a == int(a):
            n = int(a)
        elif not (type(a) is np.ndarray and a.size == 0):
            return None
    if len(args) == 3:
        if type(args[2]) is not float or args[2] < 1 or args[2] != int(args[2]) \
                or int(args[2]) > len(x.shape):
            return None
        dim = int(args[2]) - 1
    try:
        return wrap_handle(p.fft(x.valid_handle(), n, dim, False), x.matlab_class, p)
    except Unsupported:
        return None
