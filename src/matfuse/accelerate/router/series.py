"""Device paths of ``diff``, ``trapz`` and ``cumtrapz``, composed from
slices of the gpuArray (``y(2:end, :)``), elementwise operators, ``sum``,
``cumsum`` and indexed assignment, the way the builtins are defined.

``diff`` keeps the class of its input (integers up to 32 bits saturate, as
the host's; logical becomes double); ``trapz``/``cumtrapz`` take real
double/single data with unit, scalar, vector or same-size spacing. Forms
not taken (empties, a dimension past ``ndims``, complex or 64-bit data, a
spacing of the wrong length) return None: the dispatcher's counted host
fallback, which also raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import (
    FLOAT, INT_EXACT_IN_DOUBLE, along, assign, call, first_nonsingleton, host_scalar, index, op,
    positive_int, real_float, size_of,
)
from matfuse.runtime.values import char_array

_LIKE = char_array("like")


def _diff_plan(shape: tuple[int, ...], order: int, axis: int | None) -> list[int] | None:
    """0-based axis of each difference, or None when a step would leave an
    empty result or run along a dimension past ``ndims`` (left to the host)."""
    steps = []
    shape = list(shape)
    for _ in range(order):
        ax = axis if axis is not None else first_nonsingleton(tuple(shape))
        if ax >= len(shape) or shape[ax] < 2:
            return None
        steps.append(ax)
        shape[ax] -= 1
    return steps


def _difference(x: Any, ax: int) -> Any:
    """``x(2:end) - x(1:end-1)`` along 0-based ``ax``."""
    shape = size_of(x)
    n = shape[ax]
    return op("-", index(x, *along(len(shape), ax, 2, n)),
              index(x, *along(len(shape), ax, 1, n - 1)))


def diff_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``diff(x)``, ``diff(x, n)``, ``diff(x, n, dim)`` (``n`` may be ``[]``)."""
    if nargout > 1 or not 1 <= len(args) <= 3:
        return None
    x = args[0]
    if not isinstance(x, GpuArray) or x.is_complex() or 0 in x.shape or \
            x.matlab_class not in FLOAT + INT_EXACT_IN_DOUBLE + ("logical",):
        return None
    order = 1
    if len(args) >= 2 and not (type(args[1]) is np.ndarray and args[1].size == 0):
        order = positive_int(args[1])
        if order is None:
            return None
    axis = None
    if len(args) == 3:
        axis = positive_int(args[2])
        if axis is None:
            return None
        axis -= 1
    steps = _diff_plan(tuple(x.shape), order, axis)
    if steps is None:
        return None
    if x.matlab_class == "logical":
        x = call("double", x)
    for ax in steps:
        x = _difference(x, ax)
    return [x]


def _trapz_parts(args: list[Any]) -> tuple[Any, GpuArray, int] | None:
    """(spacing argument or None, ``y``, 0-based axis) of the call forms, as
    the host's ``_trapz_args`` reads them."""
    if len(args) == 1:
        xs, y, axis = None, args[0], None
    elif len(args) == 2:
        if np.prod(size_of(args[1])) == 1 and np.prod(size_of(args[0])) != 1:
            xs, y, axis = None, args[0], positive_int(args[1])
            if axis is None:
                return None
        else:
            xs, y, axis = args[0], args[1], None
    else:
        xs, y, axis = args[0], args[1], positive_int(args[2])
        if axis is None:
            return None
    if not real_float(y):
        return None
    axis = first_nonsingleton(tuple(y.shape)) if axis is None else axis - 1
    if axis >= len(y.shape) or y.shape[axis] < 2:
        return None
    return xs, y, axis


def _spacing(xs: Any, y: GpuArray, axis: int) -> Any:
    """Interval widths along ``axis`` broadcastable against the pair sums
    (1.0 for unit spacing), or None for a spacing the host must judge."""
    if xs is None:
        return 1.0
    if isinstance(xs, GpuArray):
        if xs.is_complex() or xs.matlab_class not in FLOAT:
            return None
    elif not (type(xs) is float or (type(xs) is np.ndarray and xs.dtype.kind in "fiu")):
        return None
    shape = size_of(xs)
    n = y.shape[axis]
    if int(np.prod(shape)) == 1:
        s = host_scalar(xs)
        return xs if s is None else s
    if len(shape) == 2 and min(shape) == 1:
        if int(np.prod(shape)) != n:
            return None
        target = [1.0] * max(len(y.shape), 2)
        target[axis] = float(n - 1)
        widths = _difference(call("reshape", xs, float(n), 1.0), 0)
        return call("reshape", widths, *target)
    if shape != tuple(y.shape):
        return None
    return _difference(xs, axis)


def _weighted_pairs(args: list[Any]) -> tuple[Any, GpuArray, int] | None:
    """(``h .* (y(2:end) + y(1:end-1)) / 2`` along the axis, ``y``, axis)."""
    parts = _trapz_parts(args)
    if parts is None:
        return None
    xs, y, axis = parts
    h = _spacing(xs, y, axis)
    if h is None:
        return None
    n = y.shape[axis]
    ndim = len(y.shape)
    pairs = op("./", op("+", index(y, *along(ndim, axis, 2, n)),
                        index(y, *along(ndim, axis, 1, n - 1))), 2.0)
    return op(".*", h, pairs), y, axis


def _like_input(r: Any, y: GpuArray) -> Any:
    """Single data integrates to single (a double spacing does not widen it)."""
    if y.matlab_class == "single" and isinstance(r, GpuArray) and r.matlab_class != "single":
        return call("single", r)
    return r


def trapz_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``trapz(y)``, ``trapz(x, y)``, ``trapz(y, dim)``, ``trapz(x, y, dim)``."""
    if nargout > 1 or not 1 <= len(args) <= 3:
        return None
    parts = _weighted_pairs(args)
    if parts is None:
        return None
    terms, y, axis = parts
    return [_like_input(call("sum", terms, float(axis + 1)), y)]


def cumtrapz_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``cumtrapz`` in the forms of ``trapz``: running sums, a zero first."""
    if nargout > 1 or not 1 <= len(args) <= 3:
        return None
    parts = _weighted_pairs(args)
    if parts is None:
        return None
    terms, y, axis = parts
    steps = _like_input(call("cumsum", terms, float(axis + 1)), y)
    n = y.shape[axis]
    out = call("zeros", *[float(d) for d in y.shape], _LIKE, steps)
    return [assign(out, along(len(y.shape), axis, 2, n), steps)]


COMPOSED = {
    "diff": diff_on_device,
    "trapz": trapz_on_device,
    "cumtrapz": cumtrapz_on_device,
}
