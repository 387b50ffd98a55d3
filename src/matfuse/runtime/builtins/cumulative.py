"""Scans and differences: cumsum, cumprod, cummax, cummin, diff, trapz, cumtrapz."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import dim_arg, first_nonsingleton_dim, int_value, is_text
from matfuse.runtime.builtins._reduction_args import ieee_quiet, numeric_input, saturate_to
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import canonical, to_str

_SCAN_FLAGS = ("forward", "reverse", "omitnan", "includenan", "omitmissing", "includemissing")


def _scan_args(arr: np.ndarray, args: tuple, fn: str) -> tuple[int, bool, bool | None]:
    """(axis, reverse, omitnan or None when not given)."""
    rest = list(args)
    reverse = False
    omit: bool | None = None
    while rest and is_text(rest[-1]):
        word = to_str(rest.pop()).lower()
        if word not in _SCAN_FLAGS:
            raise MatlabError(f"MATLAB:{fn}:unknownOption",
                              "Invalid option. Option must be 'forward', 'reverse', 'omitnan', or 'includenan'.")
        if word in ("forward", "reverse"):
            reverse = word == "reverse"
        else:
            omit = word.startswith("omit")
    if len(rest) > 1:
        raise MatlabError("MATLAB:TooManyInputs", "Too many input arguments.")
    axis = dim_arg(rest[0], fn) if rest else first_nonsingleton_dim(arr.shape)
    return axis, reverse, omit


def _scan(arr: np.ndarray, axis: int, reverse: bool, ufunc: Any) -> np.ndarray:
    if axis >= arr.ndim or arr.size == 0:
        return arr.copy()
    a = np.flip(arr, axis) if reverse else arr
    out = ufunc.accumulate(a, axis=axis)
    return np.flip(out, axis) if reverse else out


def _integer_scan(arr: np.ndarray, axis: int, reverse: bool, is_sum: bool) -> np.ndarray:
    """Integer cumsum/cumprod saturating at every step, like MATLAB."""
    if axis >= arr.ndim or arr.size == 0:
        return arr.copy()
    info = np.iinfo(arr.dtype)
    a = np.moveaxis(np.flip(arr, axis) if reverse else arr, axis, 0).astype(object)
    out = np.empty_like(a)
    acc = a[0]
    out[0] = acc
    for k in range(1, a.shape[0]):
        acc = acc + a[k] if is_sum else acc * a[k]
        acc = np.clip(acc, info.min, info.max)
        out[k] = acc
    res = np.moveaxis(out.astype(arr.dtype), 0, axis)
    return np.flip(res, axis) if reverse else res


def _cum_sum_prod(x: Any, args: tuple, fn: str) -> Any:
    arr = numeric_input(x, fn)
    axis, reverse, omit = _scan_args(arr, args, fn)
    is_sum = fn == "cumsum"
    if arr.dtype.kind in "iu":
        return canonical(_integer_scan(arr, axis, reverse, is_sum))
    if arr.dtype.kind == "b":
        arr = arr.astype(np.float64)
    if omit:
        arr = np.where(np.isnan(arr), 0.0 if is_sum else 1.0, arr).astype(arr.dtype)
    return canonical(_scan(arr, axis, reverse, np.add if is_sum else np.multiply))


@builtin("cumsum", category="reductions", nargin=(1, 4),
         gpu=GpuSpec(kind="scan", hook="scan", op="sum"))
def cumsum(x: Any, *args: Any) -> Any:
    """Cumulative sum: cumsum(x, dim, 'reverse', nanflag)."""
    return _cum_sum_prod(x, args, "cumsum")


@builtin("cumprod", category="reductions", nargin=(1, 4),
         gpu=GpuSpec(kind="scan", hook="scan", op="prod"))
def cumprod(x: Any, *args: Any) -> Any:
    """Cumulative product."""
    return _cum_sum_prod(x, args, "cumprod")


def _cum_extreme(x: Any, args: tuple, fn: str, pick_max: bool) -> Any:
    arr = numeric_input(x, fn)
    axis, reverse, omit = _scan_args(arr, args, fn)
    if arr.dtype.kind == "b":
        arr = arr.astype(np.float64)
    if arr.dtype.kind == "c":
        return canonical(_complex_extreme_scan(arr, axis, reverse, pick_max, omit is not False))
    # MATLAB's cummax/cummin skip NaN by default (a leading NaN stays NaN).
    if omit is False:
        ufunc = np.maximum if pick_max else np.minimum
    else:
        ufunc = np.fmax if pick_max else np.fmin
    return canonical(_scan(arr, axis, reverse, ufunc))


def _complex_extreme_scan(arr: np.ndarray, axis: int, reverse: bool, pick_max: bool,
                          omit_nan: bool) -> np.ndarray:
    """cummax/cummin of complex values: compared by magnitude, then by phase
    angle (MATLAB's rule for complex elements); NaN skipped when omit_nan."""
    moved = np.moveaxis(np.flip(arr, axis) if reverse else arr, axis, 0)
    out = moved.copy()
    best = moved[0].copy()
    for k in range(1, moved.shape[0]):
        cand = moved[k]
        key_c = np.abs(cand), np.angle(cand)
        key_b = np.abs(best), np.angle(best)
        if pick_max:
            better = (key_c[0] > key_b[0]) | ((key_c[0] == key_b[0]) & (key_c[1] > key_b[1]))
        else:
            better = (key_c[0] < key_b[0]) | ((key_c[0] == key_b[0]) & (key_c[1] < key_b[1]))
        cand_nan, best_nan = np.isnan(cand), np.isnan(best)
        if omit_nan:
            better = (better & ~cand_nan) | (best_nan & ~cand_nan)
        else:
            better = (better & ~best_nan) | cand_nan
        best = np.where(better, cand, best)
        out[k] = best
    res = np.moveaxis(out, 0, axis)
    return np.flip(res, axis) if reverse else res


@builtin("cummax", category="reductions", nargin=(1, 4), nargout=(0, 1),
         gpu=GpuSpec(kind="scan", hook="scan", op="max"))
def cummax(x: Any, *args: Any) -> Any:
    """Cumulative maximum."""
    return _cum_extreme(x, args, "cummax", True)


@builtin("cummin", category="reductions", nargin=(1, 4), nargout=(0, 1),
         gpu=GpuSpec(kind="scan", hook="scan", op="min"))
def cummin(x: Any, *args: Any) -> Any:
    """Cumulative minimum."""
    return _cum_extreme(x, args, "cummin", False)


@builtin("diff", category="reductions", nargin=(1, 3))
def diff(x: Any, n: Any = None, dim: Any = None) -> Any:
    """Differences and approximate derivatives: diff(x, n, dim)."""
    arr = numeric_input(x, "diff")
    order = 1
    if n is not None and not (type(n) is np.ndarray and n.size == 0):
        order = int_value(n, "diff")
        if order < 0:
            raise MatlabError("MATLAB:diff:differenceOrderMustBePositiveInteger",
                              "Difference order N must be a positive integer scalar.")
    axis = dim_arg(dim, "diff") if dim is not None else None
    if arr.dtype.kind == "b":
        arr = arr.astype(np.float64)
    for _ in range(order):
        ax = axis if axis is not None else first_nonsingleton_dim(arr.shape)
        if ax >= arr.ndim:
            shape = list(arr.shape) + [1] * (ax + 1 - arr.ndim)
            shape[ax] = 0
            return canonical(np.zeros(shape, dtype=arr.dtype))
        if arr.shape[ax] == 0:
            break
        if arr.dtype.kind in "iu":
            d = np.diff(arr.astype(np.float64), axis=ax)
            arr = saturate_to(d, arr.dtype)
        else:
            arr = np.diff(arr, axis=ax)
    return canonical(arr)


def _trapz_args(args: tuple, fn: str) -> tuple[np.ndarray | None, np.ndarray, int | None]:
    if len(args) == 1:
        return None, numeric_input(args[0], fn), None
    if len(args) == 2:
        second = numeric_input(args[1], fn)
        first = numeric_input(args[0], fn)
        if second.size == 1 and first.size != 1:
            return None, first, dim_arg(args[1], fn)
        return first, second, None
    return numeric_input(args[0], fn), numeric_input(args[1], fn), dim_arg(args[2], fn)


def _spacing(xs: np.ndarray | None, y: np.ndarray, axis: int, fn: str) -> np.ndarray:
    """Interval widths along ``axis`` broadcastable against ``y``'s pair sums."""
    n = y.shape[axis]
    if xs is None:
        return np.ones(1)
    xv = xs.astype(np.float64)
    if xv.size == 1:
        return np.full(1, float(xv.reshape(-1)[0]))
    if min(xv.shape) == 1 and xv.ndim == 2:
        if xv.size != n:
            raise MatlabError(f"MATLAB:{fn}:LengthXMismatchY",
                              "Length of X must match length of Y in dimension DIM.")
        shape = [1] * y.ndim
        shape[axis] = n - 1
        return np.diff(xv.reshape(-1)).reshape(shape)
    if xv.shape != y.shape:
        raise MatlabError(f"MATLAB:{fn}:XYSizeMismatch", "X and Y must have the same size.")
    return np.diff(xv, axis=axis)


def _in_class_of(result: np.ndarray, single: bool) -> np.ndarray:
    """Single data integrates to single (computed in double, rounded once)."""
    if not single:
        return result
    return result.astype(np.complex64 if result.dtype.kind == "c" else np.float32)


@builtin("trapz", category="reductions", nargin=(1, 3))
@ieee_quiet
def trapz(*args: Any) -> Any:
    """Trapezoidal integration: trapz(Y), trapz(X, Y), trapz(..., dim); single Y gives single."""
    xs, y, axis = _trapz_args(args, "trapz")
    single = y.dtype == np.float32 or y.dtype == np.complex64
    if axis is None:
        axis = first_nonsingleton_dim(y.shape)
    y = y.astype(np.complex128 if y.dtype.kind == "c" else np.float64)
    if axis >= y.ndim:
        # Integrating along a singleton dimension (every one past ndims) gives zeros.
        return canonical(np.zeros(y.shape, dtype=y.dtype))
    if y.shape[axis] == 0:
        shape = list(y.shape)
        shape[axis] = 1
        return canonical(np.zeros(shape, dtype=y.dtype))
    h = _spacing(xs, y, axis, "trapz")
    pairs = (np.take(y, range(1, y.shape[axis]), axis) + np.take(y, range(y.shape[axis] - 1), axis)) / 2
    return canonical(_in_class_of(np.sum(h * pairs, axis=axis, keepdims=True), single))


@builtin("cumtrapz", category="reductions", nargin=(1, 3))
@ieee_quiet
def cumtrapz(*args: Any) -> Any:
    """Cumulative trapezoidal integration (first element 0)."""
    xs, y, axis = _trapz_args(args, "cumtrapz")
    single = y.dtype == np.float32 or y.dtype == np.complex64
    if axis is None:
        axis = first_nonsingleton_dim(y.shape)
    y = y.astype(np.complex128 if y.dtype.kind == "c" else np.float64)
    if axis >= y.ndim or y.shape[axis] == 0:
        return canonical(np.zeros_like(y))
    h = _spacing(xs, y, axis, "cumtrapz")
    pairs = (np.take(y, range(1, y.shape[axis]), axis) + np.take(y, range(y.shape[axis] - 1), axis)) / 2
    steps = np.cumsum(h * pairs, axis=axis)
    zero = np.zeros_like(np.take(y, [0], axis))
    return canonical(_in_class_of(np.concatenate([zero, steps], axis=axis), single))

