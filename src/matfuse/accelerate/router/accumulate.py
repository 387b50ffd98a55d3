"""``accumarray`` on the device: subscripts become 0-based linear positions
by device arithmetic and the provider's ``accumulate`` hook combines the
values (``@sum`` by default, ``@max``, ``@min``).

Device subscripts are checked (positive whole numbers) and their maxima
taken on the device, and both come back in one small read-back: the output
size is a host fact MATLAB needs before it can allocate. Any form this path
does not take (cell subscripts, other functions, non-double values, bad
subscripts, ``issparse``) returns None, and the dispatcher's counted host
fallback runs the host builtin, which raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray, upload_value, wrap_handle
from matfuse.accelerate_api import Unsupported
from matfuse.runtime.values import DeviceValue, FunctionHandle, char_array

_OPS = ("sum", "max", "min")


def _call(name: str, *args: Any) -> Any:
    from matfuse.runtime.dispatcher import call_builtin
    from matfuse.runtime.registry import lookup

    return call_builtin(lookup(name), list(args), 1, None)[0]


def _op(symbol: str, a: Any, b: Any) -> Any:
    from matfuse.runtime import ops

    return ops.binary(symbol, a, b)


def _combine_op(fun: Any) -> str | None:
    if fun is None or (type(fun) is np.ndarray and fun.size == 0):
        return "sum"
    if isinstance(fun, FunctionHandle) and fun.fn is None and fun.name in _OPS:
        return fun.name
    return None


def _fill_value(fillval: Any) -> float | None:
    if fillval is None or (type(fillval) is np.ndarray and fillval.size == 0):
        return 0.0
    if type(fillval) is float:
        return fillval
    if type(fillval) is np.ndarray and fillval.size == 1 and fillval.dtype.kind in "fiu":
        return float(fillval.reshape(-1)[0])
    return None


def _device_subscripts(subs: GpuArray) -> tuple[Any, np.ndarray] | None:
    """(0-based linear-position parts, per-column maxima as an (1, ncols)
    0-based host matrix) of device subscripts, or None when some subscript
    is not a positive whole number (the host then raises MATLAB's error)."""
    if subs.matlab_class != "double" or subs.is_complex() or len(subs.shape) != 2 \
            or 0 in subs.shape:
        return None
    flat = _call("reshape", subs, float(np.prod(subs.shape)), 1.0)
    bad = _call("any", _op("|", _op("<", flat, 1.0), _op("~=", flat, _call("round", flat))))
    maxima = _call("max", subs, np.zeros((0, 0)), 1.0)
    facts = np.asarray(_call("gather", _call("horzcat", maxima, _call("double", bad))),
                       dtype=np.float64).reshape(-1)
    if facts[-1] != 0:
        return None
    return subs, (facts[:-1] - 1).astype(np.int64).reshape(1, -1)


def _linear_on_device(subs: GpuArray, shape: tuple[int, ...]) -> Any:
    """0-based column-major positions of the rows of ``subs`` in ``shape``."""
    ncols = subs.shape[1]
    if ncols == 1:
        return _op("-", subs, 1.0)
    colon = char_array(":")
    from matfuse.runtime.indexing import paren_get

    linear: Any = None
    stride = 1
    for j in range(ncols):
        part = _op(".*", _op("-", paren_get(subs, [colon, float(j + 1)]), 1.0), float(stride))
        linear = part if linear is None else _op("+", linear, part)
        stride *= shape[j]
    return linear


def accumarray_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``accumarray(subs, vals[, sz[, fun[, fillval]]])`` with matrix
    subscripts, double values (or a scalar) and ``fun`` one of ``@sum``
    (default), ``@max``, ``@min``."""
    from matfuse.accelerate.facade import ensure_provider
    from matfuse.runtime.builtins.accumulation import _output_shape, _subscripts

    if not 2 <= len(args) <= 5 or nargout > 1:
        return None
    subs, vals = args[0], args[1]
    sz = args[2] if len(args) > 2 else None
    op = _combine_op(args[3] if len(args) > 3 else None)
    fill = _fill_value(args[4] if len(args) > 4 else None)
    if op is None or fill is None:
        return None
    p = ensure_provider()
    if isinstance(subs, GpuArray):
        if subs.provider is not p:
            return None
        found = _device_subscripts(subs)
        if found is None:
            return None
        _, maxima = found
        m = subs.shape[0]
        shape = _output_shape(sz, maxima)
        linear = _linear_on_device(subs, shape)
    elif type(subs) is np.ndarray and subs.dtype.kind in "fiu" and subs.ndim == 2:
        index = _subscripts(subs)
        m = index.shape[0]
        shape = _output_shape(sz, index)
        dims = shape[:index.shape[1]] if index.shape[1] > 1 else (shape[0],)
        linear = upload_value(np.ravel_multi_index(tuple(index.T), dims, order="F")
                              .astype(np.float64).reshape(-1, 1), p) if m else None
    else:
        return None
    if m == 0:
        return None
    values = _values(vals, m, p)
    if values is None or not isinstance(linear, GpuArray):
        return None
    try:
        h = p.accumulate(op, linear.valid_handle(), values.valid_handle(), tuple(shape), fill)
    except Unsupported:
        return None
    return [wrap_handle(h, "double", p)]


def _values(vals: Any, m: int, p: Any) -> GpuArray | None:
    """The values as an m x 1 double device column, or None."""
    if type(vals) is float:
        return wrap_handle(p.fill((m, 1), vals, "float64"), "double", p)
    if isinstance(vals, DeviceValue):
        if not isinstance(vals, GpuArray) or vals.provider is not p or \
                vals.matlab_class != "double" or vals.is_complex() or \
                int(np.prod(vals.shape)) != m:
            return None
        return vals
    if type(vals) is np.ndarray and vals.dtype == np.float64 and vals.size == m:
        return upload_value(vals.reshape(-1, 1, order="F"), p)
    return None
