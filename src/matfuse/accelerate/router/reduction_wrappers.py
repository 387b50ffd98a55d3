"""Device paths of builtins defined as other reductions: the ``nan*``
functions (``mean``/``sum``/``var``/``std`` with ``'omitnan'``; ``max``/``min``
skip NaN already; ``nanmedian`` as the 50th percentile of the non-NaN
values, which is the middle value or the mean of the two middle values),
``range`` (``max - min``, saturating for integers), ``bounds``
(``[min, max]``), ``vecnorm`` (the p-norm along a dimension, by the host's
formulas) and ``tril``/``triu`` (the provider's triangular kernel; else
zeros written through a mask of the positions off the triangle, made on the
host from the size).

The forms each takes go to device reductions; anything else returns None:
the dispatcher's counted host fallback, which raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray, wrap_handle
from matfuse.accelerate_api import Unsupported
from matfuse.accelerate.router.compose_ops import (
    EMPTY, FLOAT, INT_EXACT_IN_DOUBLE, as_columns, assign, call, dims_of, host_scalar, op,
    positive_int, real_float, size_of,
)
from matfuse.accelerate.router.normalization import vector_norm
from matfuse.accelerate.router.quantiles import column_quantiles
from matfuse.runtime.values import DeviceValue, char_array, is_char, to_str

_OMITNAN = char_array("omitnan")


def _with_omitnan(name: str) -> Any:
    def nan_reduction(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
        """``nan<name>(x, ...)`` = ``<name>(x, ..., 'omitnan')``."""
        if nargout > 1 or not args or any(is_char(a) for a in args):
            return None
        return [call(name, *args, _OMITNAN)]
    return nan_reduction


def _nan_extreme(name: str) -> Any:
    def nan_extreme(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
        """``nanmax``/``nanmin``: ``max``/``min``, which skip NaN by default."""
        if nargout > 2 or not args or any(is_char(a) for a in args):
            return None
        if nargout == 2:
            return call(name, *args, nargout=2)
        return [call(name, *args)]
    return nan_extreme


def nanmedian_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``nanmedian(x)``, ``nanmedian(x, dim)`` of real float data."""
    if nargout > 1 or len(args) not in (1, 2) or not real_float(args[0]):
        return None
    x = args[0]
    dims = dims_of(args[1] if len(args) == 2 else None, tuple(x.shape))
    if dims == "bad" or dims is None or len(dims) != 1:
        return None
    cols, out_shape = as_columns(call("double", x), dims)
    (middle,) = column_quantiles(cols, [0.5])
    r = call("reshape", middle, *[float(d) for d in out_shape])
    return [call("single", r) if x.matlab_class == "single" else r]


def _min_max_args(args: list[Any]) -> list[Any] | None:
    """The ``dim|vecdim|'all'`` and nanflag arguments after ``x`` for
    ``max(x, [], ...)``, or None for forms left to the host."""
    x, rest = args[0], list(args[1:])
    if not isinstance(x, GpuArray) or x.is_complex() or 0 in x.shape or \
            x.matlab_class not in FLOAT + INT_EXACT_IN_DOUBLE + ("logical",):
        return None
    if len(rest) > 2 or any(isinstance(a, DeviceValue) for a in rest):
        return None
    return rest


def range_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``range(x)``, ``range(x, dim|vecdim|'all')`` and a nanflag."""
    if nargout > 1 or not args:
        return None
    rest = _min_max_args(args)
    if rest is None:
        return None
    x = args[0]
    if x.matlab_class == "logical":
        x = call("double", x)
    return [op("-", _extreme("max", x, rest), _extreme("min", x, rest))]


def _extreme(name: str, x: Any, rest: list[Any]) -> Any:
    """``max(x)`` or ``max(x, [], rest...)`` (``max(x, [])`` alone is the
    two-argument form)."""
    return call(name, x, EMPTY, *rest) if rest else call(name, x)


def bounds_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``[S, L] = bounds(x, ...)``: ``min`` and ``max`` with the same arguments."""
    if nargout > 2 or not args:
        return None
    rest = _min_max_args(args)
    if rest is None:
        return None
    return [_extreme("min", args[0], rest), _extreme("max", args[0], rest)]


def vecnorm_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``vecnorm(A)``, ``vecnorm(A, p)``, ``vecnorm(A, p, dim)`` of real float data."""
    if nargout > 1 or not 1 <= len(args) <= 3 or not real_float(args[0]):
        return None
    x = args[0]
    p = 2.0
    if len(args) >= 2 and not (type(args[1]) is np.ndarray and args[1].size == 0):
        p = np.inf if is_char(args[1]) and to_str(args[1]).lower() == "inf" else host_scalar(args[1])
        if p is None or not p > 0:
            return None
    axis = positive_int(args[2]) - 1 if len(args) == 3 and positive_int(args[2]) else None
    if len(args) == 3 and axis is None:
        return None
    if axis is None:
        axis = next((i for i, d in enumerate(x.shape) if d != 1), 0)
    if axis >= len(x.shape):
        return [call("abs", x)]
    return [vector_norm(x, float(p), float(axis + 1))]


def _triangle(lower: bool) -> Any:
    def triangle(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
        """``tril/triu(A)`` and ``(A, k)`` of a 2-D real gpuArray."""
        if nargout > 1 or len(args) not in (1, 2) or not isinstance(args[0], GpuArray):
            return None
        a = args[0]
        if len(a.shape) != 2 or a.is_complex() or a.matlab_class not in \
                FLOAT + INT_EXACT_IN_DOUBLE + ("logical",):
            return None
        k = 0.0 if len(args) == 1 else host_scalar(args[1])
        if k is None or k != int(k) or isinstance(args[1] if len(args) == 2 else None, DeviceValue):
            return None
        try:
            p = a.provider
            return [wrap_handle(p.triangular(a.valid_handle(), int(k), not lower), a.matlab_class, p)]
        except Unsupported:
            pass
        rows, cols = size_of(a)
        offset = np.arange(cols).reshape(1, -1) - np.arange(rows).reshape(-1, 1)
        off_triangle = offset > k if lower else offset < k
        if not off_triangle.any():
            return [a]
        dtype = {"double": np.float64, "single": np.float32, "logical": np.bool_}.get(
            a.matlab_class, a.matlab_class)
        return [assign(a, [off_triangle], np.zeros((1, 1), dtype=dtype))]
    return triangle


COMPOSED = {
    "nanmean": _with_omitnan("mean"),
    "nansum": _with_omitnan("sum"),
    "nanvar": _with_omitnan("var"),
    "nanstd": _with_omitnan("std"),
    "nanmax": _nan_extreme("max"),
    "nanmin": _nan_extreme("min"),
    "nanmedian": nanmedian_on_device,
    "range": range_on_device,
    "bounds": bounds_on_device,
    "vecnorm": vecnorm_on_device,
    "tril": _triangle(True),
    "triu": _triangle(False),
}
