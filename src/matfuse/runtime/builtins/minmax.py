"""max and min: two-argument elementwise forms and reductions.

MATLAB rules: NaN is ignored by default ('omitnan'; a slice of all NaN gives
NaN at index 1), 'includenan' propagates the first NaN; complex values compare
by magnitude, then by phase angle; ties keep the first index; logical input
stays logical, char becomes double; integer classes combine with doubles
into the integer class.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import (
    dims_arg,
    first_nonsingleton_dim,
    is_text,
    split_trailing_options,
)
from matfuse.runtime.builtins._math_support import (
    binary_inputs,
    finish,
    numeric_array,
    saturate_to,
)
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import to_str

_FLAGS = ("omitnan", "includenan", "omitmissing", "includemissing", "linear")


def _as_input(v: Any, fn: str) -> np.ndarray:
    if type(v) is bool:
        return np.array([[v]])
    if type(v) is np.ndarray and v.dtype == np.bool_:
        return v
    return numeric_array(v, fn)


def _pick(arr: np.ndarray, want_max: bool, omit_nan: bool) -> tuple[np.ndarray, np.ndarray]:
    """Reduce the last axis of ``arr`` (shape (..., n), n >= 1).

    Returns (values, 0-based indices) with MATLAB's NaN and complex rules.
    """
    if arr.dtype.kind == "c":
        nan = np.isnan(arr.real) | np.isnan(arr.imag)
        keys = [np.abs(arr), np.angle(arr)]
    elif arr.dtype.kind == "f":
        nan = np.isnan(arr)
        keys = [arr]
    else:
        keys = [arr.astype(np.int8) if arr.dtype == np.bool_ else arr]
        nan = None
    if nan is not None and not nan.any():
        nan = None
    candidates = np.ones(arr.shape, dtype=bool) if nan is None else ~nan
    for key in keys:
        if key.dtype.kind == "f":
            fill = -np.inf if want_max else np.inf
        else:
            info = np.iinfo(key.dtype)
            fill = info.min if want_max else info.max
        masked = np.where(candidates, key, fill)
        best = masked.max(axis=-1, keepdims=True) if want_max else masked.min(axis=-1, keepdims=True)
        candidates = candidates & (masked == best)
    index = np.argmax(candidates, axis=-1)
    none_left = ~candidates.any(axis=-1)
    if nan is not None:
        first_nan = np.argmax(nan, axis=-1)
        if omit_nan:
            # Slices that are all NaN: NaN at index 1.
            index = np.where(none_left, 0, index)
        else:
            has_nan = nan.any(axis=-1)
            index = np.where(has_nan, first_nan, index)
    values = np.take_along_axis(arr, index[..., None], axis=-1)[..., 0]
    return values, index


def _reduce(x: Any, fn: str, want_max: bool, dims: tuple[int, ...] | None,
            omit_nan: bool, linear: bool, nargout: int) -> Any:
    arr = _as_input(x, fn)
    shape = arr.shape
    # Real float vector, value only: NumPy's max/min is MATLAB's unless a NaN
    # is present (NumPy propagates it), then the general path decides.
    if (nargout < 2 and dims == () and arr.ndim == 2 and arr.dtype.kind == "f"
            and arr.size > 0 and (shape[0] == 1 or shape[1] == 1)):
        best = arr.max(keepdims=True) if want_max else arr.min(keepdims=True)
        if not np.isnan(best[0, 0]):
            return finish(best)
    if dims is None and arr.size == 0:
        empty = np.zeros((0, 0), dtype=arr.dtype)
        return (finish(empty), finish(np.zeros((0, 0)))) if nargout >= 2 else finish(empty)
    if dims is None:
        dims = tuple(range(arr.ndim))
    elif dims == ():
        dims = (first_nonsingleton_dim(shape),)
    vector_dims = len(dims) > 1
    # Dimensions beyond ndims are singletons: reducing them changes nothing.
    dims = tuple(d for d in dims if d < max(arr.ndim, 2)) or (arr.ndim,)
    ndim = max(arr.ndim, max(dims) + 1)
    full_shape = shape + (1,) * (ndim - arr.ndim)
    arr = arr.reshape(full_shape, order="F")
    kept = [d for d in range(ndim) if d not in dims]
    out_shape = tuple(1 if d in dims and full_shape[d] > 0 else full_shape[d] for d in range(ndim))
    reduced_len = int(np.prod([full_shape[d] for d in dims]))
    if reduced_len == 0:
        empty = np.zeros(out_shape, dtype=arr.dtype)
        return (finish(empty), finish(np.zeros(out_shape))) if nargout >= 2 else finish(empty)
    moved = np.transpose(arr, kept + list(dims))
    kept_shape = tuple(full_shape[d] for d in kept)
    flat = moved.reshape(kept_shape + (reduced_len,), order="F")
    values, index = _pick(flat, want_max, omit_nan)
    result = values.reshape(out_shape, order="F")
    if nargout < 2:
        return finish(result)
    idx = index.reshape(out_shape, order="F")
    if linear or vector_dims:
        idx = _linear_indices(idx, full_shape, dims)
    return finish(result), finish((idx + 1).astype(np.float64))


def _linear_indices(idx: np.ndarray, full_shape: tuple[int, ...], dims: tuple[int, ...]) -> np.ndarray:
    """Turn within-slice indices into linear indices of the whole array."""
    red_shape = tuple(full_shape[d] for d in dims)
    sub_red = np.unravel_index(idx, red_shape, order="F")
    grids = np.indices(idx.shape)
    subs = []
    for d in range(len(full_shape)):
        if d in dims:
            subs.append(sub_red[dims.index(d)])
        else:
            subs.append(grids[d])
    return np.ravel_multi_index(tuple(subs), full_shape, order="F")


def _elementwise(x: Any, y: Any, fn: str, want_max: bool, omit_nan: bool) -> Any:
    if type(x) is float and type(y) is float:
        if x != x:
            return y if omit_nan or y != y else x
        if y != y:
            return x if omit_nan else y
        if want_max:
            return x if x >= y else y
        return x if x <= y else y
    both_logical = _is_logical(x) and _is_logical(y)
    a, b, int_dtype = binary_inputs(x, y, fn)
    if int_dtype is not None:
        # MATLAB converts the double operand to the integer class first
        # (max(1000, uint8(1)) is 255; a NaN becomes 0, it is not ignored)
        ia = a if a.dtype == int_dtype else saturate_to(a.astype(np.float64), int_dtype)
        ib = b if b.dtype == int_dtype else saturate_to(b.astype(np.float64), int_dtype)
        return finish(np.maximum(ia, ib) if want_max else np.minimum(ia, ib))
    if a.dtype.kind == "c" or b.dtype.kind == "c":
        ctype = np.result_type(a.dtype, b.dtype, np.complex64)
        stacked = np.stack([a.astype(ctype), b.astype(ctype)], axis=-1)
        values, _ = _pick(stacked, want_max, omit_nan)
        return finish(values)
    with np.errstate(invalid="ignore"):
        if omit_nan:
            out = np.fmax(a, b) if want_max else np.fmin(a, b)
        else:
            out = np.maximum(a, b) if want_max else np.minimum(a, b)
    if both_logical:
        out = out.astype(bool)
    return finish(out)


def _is_logical(v: Any) -> bool:
    return type(v) is bool or (type(v) is np.ndarray and v.dtype == np.bool_)


def _is_empty_placeholder(v: Any) -> bool:
    return type(v) is np.ndarray and v.size == 0 and v.dtype.kind in "fb"


def _minmax(fn: str, want_max: bool, args: tuple[Any, ...], nargout: int) -> Any:
    rest, flags = split_trailing_options(list(args), _FLAGS)
    omit_nan = not any(f in ("includenan", "includemissing") for f in flags)
    linear = "linear" in flags
    if len(rest) == 1:
        return _reduce(rest[0], fn, want_max, (), omit_nan, linear, nargout)
    if len(rest) == 2 and flags and _is_empty_placeholder(rest[1]):
        # max(x, [], 'includenan'): a reduction with an option, not a pair.
        return _reduce(rest[0], fn, want_max, (), omit_nan, linear, nargout)
    if len(rest) == 2:
        if nargout >= 2:
            raise MatlabError(f"MATLAB:{fn}:TwoInTwoOutCaseNotSupported",
                              f"{fn.upper()} with two matrices to compare and two output arguments is not supported.")
        return _elementwise(rest[0], rest[1], fn, want_max, omit_nan)
    if len(rest) == 3:
        if not _is_empty_placeholder(rest[1]):
            raise MatlabError(f"MATLAB:{fn}:caseNotSupported",
                              f"{fn.upper()} with two matrices to compare and a working dimension is not supported.")
        if is_text(rest[2]) and to_str(rest[2]).lower() != "all":
            raise MatlabError(f"MATLAB:{fn}:unknownOption", f"Invalid option '{to_str(rest[2])}'.")
        dims = dims_arg(rest[2], fn)
        if dims == ():
            raise MatlabError("MATLAB:getdimarg:dimensionMustBePositiveInteger",
                              "Dimension argument must be a positive integer scalar within indexing range.")
        return _reduce(rest[0], fn, want_max, dims, omit_nan, linear, nargout)
    if not rest:
        raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
    raise MatlabError("MATLAB:TooManyInputs", "Too many input arguments.")


@builtin("max", category="elementwise", nargin=(1, 4), nargout=(0, 2), wants_nargout=True,
         gpu=GpuSpec(kind="elementwise", hook="elem_binary", op="max"), fusion="max")
def max_(*args: Any, nargout: int = 1) -> Any:
    """Largest elements: ``max(a, b)``, ``max(x)``, ``max(x, [], dim)``,
    ``[m, i] = max(x, [], 'all')``; NaN ignored unless 'includenan'."""
    if nargout <= 1 and len(args) == 2 and type(args[0]) is float and type(args[1]) is float:
        x, y = args
        if x != x:
            return y
        if y != y:
            return x
        return x if x >= y else y
    return _minmax("max", True, args, nargout)


@builtin("min", category="elementwise", nargin=(1, 4), nargout=(0, 2), wants_nargout=True,
         gpu=GpuSpec(kind="elementwise", hook="elem_binary", op="min"), fusion="min")
def min_(*args: Any, nargout: int = 1) -> Any:
    """Smallest elements: ``min(a, b)``, ``min(x)``, ``min(x, [], dim)``,
    ``[m, i] = min(x, [], 'all')``; NaN ignored unless 'includenan'."""
    if nargout <= 1 and len(args) == 2 and type(args[0]) is float and type(args[1]) is float:
        x, y = args
        if x != x:
            return y
        if y != y:
            return x
        return x if x <= y else y
    return _minmax("min", False, args, nargout)


def _topk(fn: str, x: Any, k: Any, args: tuple[Any, ...], nargout: int, largest: bool) -> Any:
    from matfuse.runtime.builtins._common import dim_arg, int_value
    from matfuse.runtime.builtins.sorting import value_ranks

    count = int_value(k, fn)
    if count < 0:
        raise MatlabError(f"MATLAB:{fn}:invalidK", "K must be a nonnegative integer scalar.")
    arr = _as_input(x, fn)
    rest, _ = split_trailing_options(list(args), ("comparisonmethod", "auto", "real", "abs"))
    axis = dim_arg(rest[0], fn) if rest else first_nonsingleton_dim(arr.shape)
    if axis >= arr.ndim:
        arr = arr.reshape(arr.shape + (1,) * (axis + 1 - arr.ndim))
    moved = np.moveaxis(arr, axis, -1)
    ranks = value_ranks(moved)
    if moved.dtype.kind in "fc":
        nan = np.isnan(moved)
        # NaN never counts as large or small: it goes last either way.
        ranks = np.where(nan, -1 if largest else ranks.max(initial=0) + 1, ranks)
    order = np.argsort(-ranks if largest else ranks, axis=-1, kind="stable")[..., :count]
    values = np.moveaxis(np.take_along_axis(moved, order, axis=-1), -1, axis)
    if nargout < 2:
        return finish(values)
    return finish(values), finish(np.moveaxis(order, -1, axis).astype(np.float64) + 1)


@builtin("maxk", category="sort", nargin=(2, 5), nargout=(0, 2), wants_nargout=True,
         gpu=GpuSpec(kind="sort", hook="topk", op="maxk"))
def maxk(x: Any, k: Any, *args: Any, nargout: int = 1) -> Any:
    """The k largest elements along a dimension, largest first; [B, I]."""
    return _topk("maxk", x, k, args, nargout, largest=True)


@builtin("mink", category="sort", nargin=(2, 5), nargout=(0, 2), wants_nargout=True,
         gpu=GpuSpec(kind="sort", hook="topk", op="mink"))
def mink(x: Any, k: Any, *args: Any, nargout: int = 1) -> Any:
    """The k smallest elements along a dimension, smallest first; [B, I]."""
    return _topk("mink", x, k, args, nargout, largest=False)
