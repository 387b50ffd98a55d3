"""Device paths of the convolution builtins ``conv`` and ``conv2`` and of ``filter``.

Both take the provider's direct-convolution hooks (``conv1d``/``conv2d``)
for real, non-empty ``double``/``single`` operands of one class (host
operands are uploaded). Every other form (shape errors, N-D, empty,
complex, integer or mixed-class inputs, whose result class the host's
rules decide) returns None: the dispatcher's counted host fallback.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.class_rules import operand_kind
from matfuse.accelerate.router.ops import on_device
from matfuse.accelerate.gpuarray import GpuArray, wrap_handle
from matfuse.accelerate_api import AccelProvider, GpuTensorHandle, Unsupported
from matfuse.runtime.values import DeviceValue, is_char, to_str

_MODES = ("full", "same", "valid")


def _mode(args: list[Any]) -> tuple[list[Any], str] | None:
    """Operands and the shape word (``'full'`` by default); None when the
    last argument is text that is not a shape (the host raises)."""
    if args and is_char(args[-1]):
        word = to_str(args[-1]).lower()
        return (args[:-1], word) if word in _MODES else None
    return args, "full"


def _real_float_operands(p: AccelProvider, values: list[Any]) -> list[GpuArray] | None:
    """``values`` as device arrays of one real float class, 2-D and
    non-empty; None otherwise (decided before any host operand uploads)."""
    classes = set()
    for v in values:
        kind = operand_kind(v)
        if kind is None or kind[1] or isinstance(v, DeviceValue) and not isinstance(v, GpuArray):
            return None
        classes.add(kind[0])
    if len(classes) != 1 or not classes <= {"double", "single"}:
        return None  # mixed single/double, ints, text: the host's class rules
    out: list[GpuArray] = []
    for v in values:
        g = on_device(p, v)
        if g is None or len(g.shape) != 2 or 0 in g.shape:
            return None
        out.append(g)
    return out


def _is_vector(g: GpuArray) -> bool:
    return len(g.shape) == 2 and 1 in g.shape


def try_conv(p: AccelProvider, args: list[Any]) -> GpuArray | None:
    """``conv(u, v)`` and ``conv(u, v, shape)`` of real float vectors."""
    split = _mode(list(args))
    if split is None or len(split[0]) != 2:
        return None
    operands, mode = split
    pair = _real_float_operands(p, operands)
    if pair is None or not all(_is_vector(g) for g in pair):
        return None
    a, b = pair
    # MATLAB's 'full' result takes the longer input's orientation (v's on a
    # tie); the hook orients like its first operand, and the full
    # convolution is symmetric, so pass that one first.
    if mode == "full" and b.numel >= a.numel:
        a, b = b, a
    try:
        h = p.conv1d(a.valid_handle(), b.valid_handle(), mode)
    except Unsupported:
        return None
    return wrap_handle(h, a.matlab_class, p)


def try_conv2(p: AccelProvider, args: list[Any]) -> GpuArray | None:
    """``conv2(A, B[, shape])`` and the separable ``conv2(u, v, A[, shape])``."""
    split = _mode(list(args))
    if split is None or len(split[0]) not in (2, 3):
        return None
    operands, mode = split
    arrays = _real_float_operands(p, operands)
    if arrays is None:
        return None
    cls = arrays[0].matlab_class
    try:
        if len(arrays) == 2:
            return wrap_handle(p.conv2d(arrays[0].valid_handle(), arrays[1].valid_handle(), mode),
                               cls, p)
        return _separable(p, arrays, mode)
    except Unsupported:
        return None


def _separable(p: AccelProvider, arrays: list[GpuArray], mode: str) -> GpuArray | None:
    """``conv2(u, v, A, shape)``: A convolved with column u, then with row v.
    Each pass crops independently (rows, then columns), so cropping each
    pass to ``shape`` equals cropping the full 2-D result."""
    u, v, a = arrays
    if not _is_vector(u) or not _is_vector(v):
        return None
    cls = a.matlab_class
    keep: list[GpuArray] = []
    column = _oriented(p, u, column=True, keep=keep)
    row = _oriented(p, v, column=False, keep=keep)
    first = wrap_handle(p.conv2d(a.valid_handle(), column, mode), cls, p)
    if 0 in first.shape:
        return None  # an empty middle result: the host's shape rules
    return wrap_handle(p.conv2d(first.valid_handle(), row, mode), cls, p)


def _oriented(p: AccelProvider, g: GpuArray, column: bool,
              keep: list[GpuArray]) -> GpuTensorHandle:
    """Handle of vector ``g`` as a column (or row); transposed on the device
    when needed, the copy kept alive in ``keep``."""
    is_column = g.shape[1] == 1
    if is_column == column:
        return g.valid_handle()
    t = wrap_handle(p.permute(g.valid_handle(), (1, 0)), g.matlab_class, p)
    keep.append(t)
    return t.valid_handle()


def try_filter(p: AccelProvider, args: list[Any], nargout: int) -> list[Any] | None:
    """``y = filter(b, a, x)`` and ``filter(b, a, x, [], dim)``: real float
    coefficients and data of one class, ``x`` on the device. Initial
    conditions, ``[y, zf]``, a zero ``a(1)`` (MATLAB's error) and mixed
    classes take the host path."""
    if nargout > 1 or len(args) not in (3, 5) or not isinstance(args[2], GpuArray):
        return None
    dim = None
    if len(args) == 5:
        zi, d = args[3], args[4]
        if not (type(zi) is np.ndarray and zi.size == 0) or type(d) is not float or \
                d < 1 or d != int(d):
            return None
        dim = int(d) - 1
    coeffs = []
    for v in args[:2]:
        host = v.gather() if isinstance(v, GpuArray) else v
        arr = np.asarray(host) if type(host) in (float, np.ndarray) else None
        if arr is None or arr.dtype.kind != "f" or arr.size == 0 or \
                arr.ndim > 2 or min(arr.shape, default=1) > 1 and arr.ndim == 2:
            return None
        coeffs.append(arr)
    if coeffs[1].reshape(-1)[0] == 0:
        return None
    operands = _real_float_operands(p, list(args[:3]))
    if operands is None:
        return None
    b, a, x = operands
    if dim is None:
        dim = next((i for i, n in enumerate(x.shape) if n != 1), 0)
    try:
        h = p.filter(b.valid_handle(), a.valid_handle(), x.valid_handle(), dim)
    except Unsupported:
        return None
    return [wrap_handle(h, x.matlab_class, p)]
