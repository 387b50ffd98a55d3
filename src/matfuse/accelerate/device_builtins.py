"""Device paths of builtins declared with a ``GpuSpec`` (and of the few
routed by name, ``conv2`` and ``complex``, whose declarations carry none).

``try_builtin_on_device`` maps the common call forms of elementwise,
reduction, matmul/transpose, type-conversion and convolution builtins onto
provider hooks. Any other form returns None and the dispatcher takes the counted
host fallback, so a spec never changes what a program computes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate import device_layout as layout
from matfuse.accelerate import device_ops, device_signal, device_stats
from matfuse.accelerate.class_rules import BINARY_OPS, matlab_class_of_dtype, operand_kind
from matfuse.accelerate.gpuarray import GpuArray, wrap_handle
from matfuse.accelerate_api import AccelProvider, Unsupported
from matfuse.runtime.registry import Builtin
from matfuse.runtime.values import NUMERIC_CLASSES, is_char, to_str

_REDUCE_OPS = frozenset({"sum", "prod", "mean", "max", "min", "any", "all"})


def try_builtin_on_device(p: AccelProvider, b: Builtin, args: list[Any],
                          nargout: int) -> list[Any] | None:
    """Outputs of ``b(args...)`` computed by the provider, or None."""
    name = b.name
    spec = b.gpu
    if spec is not None and spec.hook == "sort":
        return layout.try_sort(p, args, nargout)
    if name in device_stats.ROUTED:
        return device_stats.try_stats(p, name, args, nargout)
    if name == "filter":
        return device_signal.try_filter(p, args, nargout)
    if nargout > 1:
        return None
    if name in layout.REARRANGE:
        return _one(layout.try_rearrange(p, b, args))
    if name in NUMERIC_CLASSES and len(args) == 1:
        return _one(device_ops.try_cast(p, args[0], name))
    if name == "conv2":
        return _one(device_signal.try_conv2(p, args))
    if name == "complex":
        return _one(device_ops.try_complex(p, args))
    if name == "cast":
        return _one(_try_cast_builtin(p, args))
    if spec is None:
        return None
    hook, op = spec.hook, spec.op or name
    if hook == "conv1d":
        return _one(device_signal.try_conv(p, args))
    if hook == "elem_unary" and len(args) == 1:
        return _one(device_ops.try_unary(p, op, args[0]))
    if op in ("max", "min") and hook in ("elem_binary", "reduce"):
        if len(args) == 2:
            return _one(device_ops.try_binary(p, op, args[0], args[1]))
        return _one(_try_reduce(p, op, args))
    if hook == "elem_binary" and len(args) == 2 and op in BINARY_OPS:
        return _one(device_ops.try_binary(p, op, args[0], args[1]))
    if hook == "reduce" and op in _REDUCE_OPS:
        return _one(_try_reduce(p, op, args))
    if hook == "scan" and op.removeprefix("cum") in ("sum", "prod", "max", "min"):
        return _one(_try_scan(p, "cum" + op.removeprefix("cum"), args))
    if hook == "moments" and op in ("var", "std") and len(args) == 1:
        return _one(_try_moments(p, op, args[0]))
    if hook == "find" and len(args) == 1:
        return _one(layout.try_find(p, args[0]))
    if hook == "concat":
        return _one(layout.try_concat_builtin(p, op, args))
    if hook == "polyval":
        return _one(layout.try_polyval(p, args))
    if hook == "fft" and op == "fft" and 1 <= len(args) <= 3:
        return _one(layout.try_fft(p, args))
    if hook == "matmul" and len(args) == 2:
        return _one(device_ops.try_mtimes(p, args[0], args[1]))
    if hook == "permute" and len(args) == 1 and op in ("transpose", "ctranspose"):
        return _one(device_ops.try_transpose(p, args[0], op == "ctranspose"))
    if hook == "cast" and len(args) == 1 and (op in NUMERIC_CLASSES or op == "logical"):
        return _one(device_ops.try_cast(p, args[0], op))
    return None


def _try_cast_builtin(p: AccelProvider, args: list[Any]) -> GpuArray | None:
    """``cast(x, 'int16')`` and ``cast(x, 'like', proto)`` (real ``proto``)."""
    if len(args) not in (2, 3) or not is_char(args[1]):
        return None
    word = to_str(args[1])
    if len(args) == 2:
        cls = word
    elif word == "like":
        kind = operand_kind(args[2])
        if kind is None or kind[1]:
            return None
        cls = kind[0]
    else:
        return None
    if cls not in NUMERIC_CLASSES and cls != "logical":
        return None
    return device_ops.try_cast(p, args[0], cls)


def _one(result: GpuArray | None) -> list[Any] | None:
    return None if result is None else [result]


def _reduce_out_dtype(op: str, a: GpuArray) -> str | None:
    cls, cx = a.matlab_class, a.is_complex()
    if op in ("any", "all"):
        return "bool" if cls in ("double", "single", "logical") and not cx else None
    if cls not in ("double", "single"):
        return None
    if cx and op in ("max", "min"):
        return None
    return a.handle.dtype


def _try_reduce(p: AccelProvider, op: str, args: list[Any]) -> GpuArray | None:
    """``op(x)``, ``op(x, dim)``, ``op(x, 'all')``, ``max(x, [], dim)`` plus
    trailing ``'omitnan'``/``'includenan'``; None for every other form."""
    x = args[0]
    if not isinstance(x, GpuArray) or x.provider is not p or 0 in x.shape:
        return None  # empties follow MATLAB's special cases on the host
    rest = list(args[1:])
    omitnan = op in ("max", "min")  # MATLAB's max/min skip NaN by default
    while rest and is_char(rest[-1]) and to_str(rest[-1]).lower() in ("omitnan", "includenan"):
        omitnan = to_str(rest.pop()).lower() == "omitnan"
    if op in ("max", "min"):
        if len(rest) == 0:
            pass
        elif len(rest) == 2 and _is_empty(rest[0]):
            rest = rest[1:]
        else:
            return None
    if op in ("any", "all") and len(rest) == 0 and len(x.shape) == 2 and 1 in x.shape:
        dims: tuple[int, ...] | None = (0 if x.shape[0] != 1 else 1,)
    elif len(rest) == 0:
        dims = (_first_nonsingleton(x.shape),)
    elif len(rest) == 1 and is_char(rest[0]) and to_str(rest[0]).lower() == "all":
        dims = None
    elif len(rest) == 1 and type(rest[0]) is float and rest[0] >= 1 and rest[0] == int(rest[0]):
        dims = (int(rest[0]) - 1,)
    else:
        return None
    out_dtype = _reduce_out_dtype(op, x)
    if out_dtype is None:
        return None
    if dims is not None and dims[0] >= len(x.shape):
        # Reducing a trailing singleton dimension is the identity (sum/max...).
        if op in ("any", "all"):
            return None
        return x
    try:
        h = p.reduce(op, x.valid_handle(), dims, omitnan, out_dtype)
    except Unsupported:
        return None
    return wrap_handle(h, matlab_class_of_dtype(out_dtype), p)


def _is_empty(v: Any) -> bool:
    return type(v) is np.ndarray and v.size == 0


def _first_nonsingleton(shape: tuple[int, ...]) -> int:
    for i, d in enumerate(shape):
        if d != 1:
            return i
    return 0


def _float_array(p: AccelProvider, x: Any) -> bool:
    return isinstance(x, GpuArray) and x.provider is p and 0 not in x.shape and \
        x.matlab_class in ("double", "single")


def _try_scan(p: AccelProvider, op: str, args: list[Any]) -> GpuArray | None:
    """``cumsum(x)`` and ``cumsum(x, dim)`` of real float arrays."""
    x = args[0]
    if not _float_array(p, x) or x.is_complex() or len(args) > 2:
        return None
    if len(args) == 2:
        if type(args[1]) is not float or args[1] < 1 or args[1] != int(args[1]):
            return None
        dim = int(args[1]) - 1
        if dim >= len(x.shape):
            return x
    else:
        dim = _first_nonsingleton(x.shape)
    try:
        h = p.scan(op, x.valid_handle(), dim, False)
    except Unsupported:
        return None
    return wrap_handle(h, x.matlab_class, p)


def _try_moments(p: AccelProvider, op: str, x: Any) -> GpuArray | None:
    """``var(x)``/``std(x)`` along the default dimension (weight 0)."""
    if not _float_array(p, x) or x.is_complex():
        return None
    try:
        h = p.moments(op, x.valid_handle(), (_first_nonsingleton(x.shape),), 0, False)
    except Unsupported:
        return None
    return wrap_handle(h, x.matlab_class, p)
