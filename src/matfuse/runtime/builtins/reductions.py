"""Reductions: sum, prod, mean, median, mode, range, bounds.

Output classes follow MATLAB's documented ``outtype`` rules: by default
``sum``/``prod`` of integers, logical and char give double (``sum(int8([100
100]))`` is 200), single stays single; ``'native'`` keeps the input's class
(integers accumulate in their class, saturating at each step), ``'double'``
gives double.  ``mean`` of integers is
double unless ``'native'``.  Empty rules: ``sum([]) = 0``, ``prod([]) = 1``,
``mean([]) = NaN``, ``sum(zeros(0,3)) = zeros(1,3)``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.builtins._native_accumulation import saturating_reduce
from matfuse.runtime.builtins._reduction_args import (
    ieee_quiet,
    ReductionArgs,
    numeric_input,
    parse_reduction_args,
    reduce_with,
    saturate_to,
)
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import CellArray, canonical, to_str


def _output_dtype(x: np.ndarray, outtype: str, fn: str) -> np.dtype:
    """MATLAB's result class of sum/prod for ``x`` and the type flag."""
    kind = x.dtype.kind
    if outtype == "double":
        return np.dtype(np.complex128 if kind == "c" else np.float64)
    if outtype == "native":
        if kind == "U":
            raise MatlabError(f"MATLAB:{fn}:nativeChar",
                              "'native' is not supported for char inputs.")
        return x.dtype
    if kind == "c" or x.dtype == np.float32:
        return x.dtype
    return np.dtype(np.float64)


def _accumulator(a: np.ndarray) -> np.dtype | None:
    """Single data is accumulated in double (the result is rounded back to
    single): NumPy sums strided axes sequentially, and in float32 the mean
    over dims [2 3] of a 16x2160x3840 single array was 0.8% off."""
    if a.dtype == np.float32:
        return np.dtype(np.float64)
    if a.dtype == np.complex64:
        return np.dtype(np.complex128)
    return None


def _sum_like(x: Any, args: tuple, fn: str) -> Any:
    arr = numeric_input(x, fn)
    ra = parse_reduction_args(arr, list(args), fn, allow_type=True)
    out_dtype = _output_dtype(arr, ra.outtype, fn)
    is_sum = fn == "sum"
    if arr.dtype.kind in "iu" and arr.dtype.itemsize == 8:
        work = arr.astype(object)     # exact 64-bit integer accumulation
    elif arr.dtype.kind == "c":
        work = arr
    elif arr.dtype == np.float32 and out_dtype == np.float32:
        work = arr
    else:
        work = arr.astype(np.float64, copy=False)
    if ra.omitnan and work.dtype.kind in "fc":
        work = np.where(np.isnan(work), 0.0 if is_sum else 1.0, work)

    native_integer = ra.outtype == "native" and out_dtype.kind in "iu"

    def op(a: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
        if native_integer:
            return saturating_reduce(a, axes, is_sum, out_dtype)
        acc = _accumulator(a)
        if is_sum:
            return np.sum(a, axis=axes, keepdims=True, dtype=acc)
        if a.dtype.kind == "c" and all(a.shape[i] == 1 for i in axes):
            # the product of one element is that element: NumPy multiplies
            # by the identity 1+0i, and 0*NaN would turn a NaN part into
            # the other part (MATLAB returns the element)
            return a.copy() if acc is None else a.astype(acc)
        return np.prod(a, axis=axes, keepdims=True, dtype=acc)

    result = reduce_with(work, ra, op)
    if out_dtype == np.bool_:
        return canonical(np.asarray(result != 0))
    if out_dtype.kind in "iu":
        if result.dtype == object:
            info = np.iinfo(out_dtype)
            flat = [min(max(int(v), info.min), info.max) for v in result.reshape(-1)]
            return canonical(np.array(flat, dtype=out_dtype).reshape(result.shape))
        return canonical(saturate_to(result, out_dtype))
    return canonical(np.asarray(result).astype(out_dtype))


_DOUBLE = np.dtype(np.float64)
_LOGICAL = np.dtype(np.bool_)


@builtin("sum", category="reductions", nargin=(1, 4),
         gpu=GpuSpec(kind="reduction", hook="reduce", op="sum"), fusion="sum")
def sum_(x: Any, *args: Any) -> Any:
    """Sum of elements: sum(x), sum(x, dim|vecdim|'all'), type and NaN flags."""
    if type(x) is float and not args:
        return x   # scalar fast path (loops)
    if type(x) is np.ndarray and not args and x.ndim == 2 and x.dtype is _DOUBLE \
            and x.shape[0] == 1 and x.size:
        return np.add.reduce(x, axis=1).item()   # a double row (the loop case)
    if type(x) is np.ndarray and not args and x.ndim == 2 and x.size \
            and (x.dtype == _DOUBLE or x.dtype == _LOGICAL):
        # A nonempty double/logical matrix along its first non-singleton
        # dimension: what _sum_like does, without parsing options.
        rows = x.shape[0]
        if rows == 1 or x.shape[1] == 1:
            # A vector: a logical one counts its true elements; a double row
            # sums along its (contiguous) axis, as the general call does.
            if x.dtype == _LOGICAL:
                return float(np.count_nonzero(x))
            if rows == 1:
                return np.add.reduce(x, axis=1).item()
        axis = 1 if rows == 1 else 0
        return canonical(np.add.reduce(x, axis=axis, keepdims=True, dtype=np.float64))
    return _sum_like(x, args, "sum")


@builtin("prod", category="reductions", nargin=(1, 4),
         gpu=GpuSpec(kind="reduction", hook="reduce", op="prod"), fusion="prod")
def prod(x: Any, *args: Any) -> Any:
    """Product of elements."""
    if type(x) is float and not args:
        return x
    return _sum_like(x, args, "prod")


def _mean_dtype(arr: np.ndarray, outtype: str) -> np.dtype:
    if outtype == "native":
        if arr.dtype.kind == "b":
            raise MatlabError("MATLAB:mean:nativeLogical",
                              "'native' is not supported for logical inputs.")
        return arr.dtype
    if arr.dtype.kind == "c":
        return np.dtype(np.complex64 if arr.dtype == np.complex64 and outtype != "double" else np.complex128)
    if arr.dtype == np.float32 and outtype != "double":
        return arr.dtype
    return np.dtype(np.float64)


def mean_of(arr: np.ndarray, ra: ReductionArgs) -> np.ndarray:
    """Mean with ``ra``'s axes and NaN flag, in float64/complex (or single)."""
    work = arr.astype(np.complex128 if arr.dtype.kind == "c" else
                      (np.float32 if arr.dtype == np.float32 else np.float64), copy=False)

    def op(a: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            if ra.omitnan:
                mask = ~np.isnan(a)
                total = np.sum(np.where(mask, a, 0), axis=axes, keepdims=True, dtype=_accumulator(a))
                count = np.sum(mask, axis=axes, keepdims=True)
                return total / count
            count = int(np.prod([a.shape[i] for i in axes]))
            total = np.sum(a, axis=axes, keepdims=True, dtype=_accumulator(a))
            return total / count if count else total * np.nan

    return reduce_with(work, ra, op)


@builtin("mean", category="reductions", nargin=(1, 4),
         gpu=GpuSpec(kind="reduction", hook="reduce", op="mean"), fusion="mean")
def mean(x: Any, *args: Any) -> Any:
    """Average: mean(x, dim|vecdim|'all', outtype, nanflag)."""
    if type(x) is float and not args:
        return x
    arr = numeric_input(x, "mean")
    ra = parse_reduction_args(arr, list(args), "mean", allow_type=True)
    out_dtype = _mean_dtype(arr, ra.outtype)
    result = mean_of(arr, ra)
    if out_dtype.kind in "iu":
        return canonical(saturate_to(result, out_dtype))
    return canonical(np.asarray(result).astype(out_dtype))


@builtin("median", category="reductions", nargin=(1, 3),
         gpu=GpuSpec(kind="reduction", hook="reduce", op="median"))
def median(x: Any, *args: Any) -> Any:
    """Median value: median(x, dim|vecdim|'all', nanflag)."""
    arr = numeric_input(x, "median")
    ra = parse_reduction_args(arr, list(args), "median")
    work = arr.astype(np.float32 if arr.dtype == np.float32 else
                      (np.complex128 if arr.dtype.kind == "c" else np.float64))

    def op(a: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
        if any(a.shape[i] == 0 for i in axes):
            shape = tuple(1 if i in axes else d for i, d in enumerate(a.shape))
            return np.full(shape, np.nan, dtype=a.dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            if ra.omitnan:
                return np.nanmedian(a, axis=axes, keepdims=True)
            return np.median(a, axis=axes, keepdims=True)

    result = reduce_with(work, ra, op)
    if arr.dtype.kind in "iu":
        return canonical(saturate_to(result, arr.dtype))
    return canonical(np.asarray(result).astype(work.dtype))


def _mode_vector(v: np.ndarray) -> tuple[Any, int, np.ndarray]:
    vals = v[~np.isnan(v)] if v.dtype.kind in "fc" else v
    if vals.size == 0:
        return np.nan, 0, np.array([np.nan])
    uniq, counts = np.unique(vals, return_counts=True)
    best = counts.max()
    winners = uniq[counts == best]
    return winners[0], int(best), winners


@builtin("mode", category="reductions", nargin=(1, 2), nargout=(0, 3), wants_nargout=True)
def mode(x: Any, *args: Any, nargout: int = 1) -> Any:
    """Most frequent value (smallest among ties): [M, F, C] = mode(x, dim)."""
    arr = numeric_input(x, "mode")
    ra = parse_reduction_args(arr, list(args), "mode", allow_nan=False)
    if ra.axes is not None and len(ra.axes) != 1:
        raise MatlabError("MATLAB:mode:invalidDim", "Dimension argument must be a positive integer scalar.")
    if ra.axes is None:
        arr, axis = arr.reshape(-1, 1, order="F"), 0
    elif not ra.dim_given and arr.shape == (0, 0):
        arr, axis = arr.reshape(0, 1), 0
    else:
        axis = ra.axes[0]
    if axis >= arr.ndim:
        # A dim past ndims is a trailing singleton.
        arr = arr.reshape(arr.shape + (1,) * (axis + 1 - arr.ndim))
    moved = np.moveaxis(arr, axis, -1)
    lead = moved.shape[:-1]
    rows = moved.reshape(int(np.prod(lead)), moved.shape[-1])
    out_dtype = arr.dtype if arr.dtype.kind != "b" else np.dtype(np.float64)
    if arr.dtype.kind == "U":
        out_dtype = np.dtype(np.float64)
    m = np.empty(rows.shape[0], dtype=np.float64 if out_dtype.kind in "iub" else out_dtype)
    f = np.zeros(rows.shape[0])
    cells = np.empty(rows.shape[0], dtype=object)
    for i, row in enumerate(rows):
        value, count, winners = _mode_vector(row)
        m[i], f[i] = value, count
        cells[i] = canonical(winners.astype(out_dtype if count else np.float64).reshape(-1, 1))
    shape_out = lead + (1,)
    m_arr = np.moveaxis(m.reshape(shape_out), -1, axis)
    if out_dtype.kind in "iu":
        m_arr = m_arr.astype(out_dtype)
    f_arr = np.moveaxis(f.reshape(shape_out), -1, axis)
    result = [canonical(m_arr), canonical(f_arr),
              CellArray(_trailing_singletons_dropped(np.moveaxis(cells.reshape(shape_out), -1, axis)))]
    return tuple(result[:max(1, nargout)]) if nargout > 1 else result[0]


def _trailing_singletons_dropped(arr: np.ndarray) -> np.ndarray:
    """``arr`` without trailing dims of length 1 past the second (MATLAB's shape)."""
    shape = arr.shape
    while len(shape) > 2 and shape[-1] == 1:
        shape = shape[:-1]
    return arr.reshape(shape)


def _min_max(arr: np.ndarray, ra: ReductionArgs) -> tuple[np.ndarray, np.ndarray]:
    def reducer(fn_all: Any, fn_nan: Any) -> Any:
        def op(a: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
            if a.size == 0:
                shape = tuple(1 if i in axes else d for i, d in enumerate(a.shape))
                # A reduced dimension of length 0 stays empty; one of length 1 stays 1.
                return np.zeros(shape, dtype=a.dtype)[tuple(
                    slice(0, 0) if i in axes and a.shape[i] == 0 else slice(None)
                    for i in range(a.ndim))]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                f = fn_all if not ra.omitnan else fn_nan
                return f(a, axis=axes, keepdims=True)
        return op

    lo = reduce_with(arr, ra, reducer(np.min, np.nanmin))
    hi = reduce_with(arr, ra, reducer(np.max, np.nanmax))
    return lo, hi


def _min_max_args(x: Any, args: tuple, fn: str) -> tuple[np.ndarray, ReductionArgs]:
    arr = numeric_input(x, fn)
    ra = parse_reduction_args(arr, list(args), fn)
    # MATLAB's min/max (and so range/bounds) omit NaN unless told otherwise.
    ra.omitnan = not any(is_text(a) and to_str(a).lower() in ("includenan", "includemissing")
                         for a in args)
    return arr, ra


@builtin("range", category="reductions", nargin=(1, 3))
@ieee_quiet
def range_(x: Any, *args: Any) -> Any:
    """Range of values, max(x) - min(x), along dim."""
    arr, ra = _min_max_args(x, args, "range")
    if arr.dtype.kind == "b":
        arr = arr.astype(np.float64)
    lo, hi = _min_max(arr, ra)
    if arr.dtype.kind in "iu":
        return canonical(saturate_to(hi.astype(np.float64) - lo.astype(np.float64), arr.dtype))
    return canonical(np.asarray(hi - lo).astype(arr.dtype if arr.dtype.kind in "fc" else np.float64))


@builtin("bounds", category="reductions", nargin=(1, 3), nargout=(0, 2))
@ieee_quiet
def bounds(x: Any, *args: Any) -> Any:
    """[S, L] = bounds(x, dim): smallest and largest elements."""
    arr, ra = _min_max_args(x, args, "bounds")
    lo, hi = _min_max(arr, ra)
    return canonical(lo), canonical(hi)
