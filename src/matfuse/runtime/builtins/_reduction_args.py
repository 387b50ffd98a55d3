"""Shared machinery of MATLAB reductions (sum, mean, std, median, ...).

MATLAB's conventions: the default dimension is the first non-singleton one
(a 0x0 input reduces to a 1x1 result); ``dim`` may be a scalar, a vector of
dims or ``'all'``; dims beyond ``ndims`` are singletons (reduction is the
identity there); trailing flags choose NaN handling and the output class.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import dims_arg, first_nonsingleton_dim, is_text
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    DeviceValue,
    StringArray,
    StructArray,
    char_codes,
    class_of,
    to_array,
    to_str,
)

NAN_FLAGS = ("omitnan", "includenan", "omitmissing", "includemissing")
TYPE_FLAGS = ("native", "double", "default")


@dataclass
class ReductionArgs:
    """Parsed trailing arguments: ``axes`` None means ``'all'``."""

    axes: tuple[int, ...] | None
    omitnan: bool = False
    outtype: str = "default"
    dim_given: bool = False


def numeric_input(v: Any, fn: str) -> np.ndarray:
    """The data argument as an ndarray (char as its codes, as double)."""
    if isinstance(v, DeviceValue):
        v = v.gather()
    if isinstance(v, (CellArray, StructArray, StringArray)) or not (
            type(v) in (float, bool, complex, np.ndarray)):
        raise MatlabError(f"MATLAB:{fn}:invalidType",
                          "Invalid data type. First argument must be numeric or logical.")
    arr = to_array(v)
    if arr.dtype == CHAR_DTYPE:
        arr = char_codes(arr).astype(np.float64)
    return arr


def parse_reduction_args(x: np.ndarray, args: list[Any], fn: str,
                         allow_type: bool = False, allow_nan: bool = True) -> ReductionArgs:
    """Parse ``(dim | vecdim | 'all')`` and trailing flags after the data."""
    rest = list(args)
    omit = False
    outtype = "default"
    while rest and is_text(rest[-1]):
        word = to_str(rest[-1]).lower()
        if allow_nan and word in NAN_FLAGS:
            omit = word.startswith("omit")
        elif allow_type and word in TYPE_FLAGS:
            outtype = word
        elif word == "all" and len(rest) == 1:
            break
        else:
            raise MatlabError(f"MATLAB:{fn}:unknownFlag", f"Invalid option. Option must be "
                              + ("'double', 'native', 'default', 'omitnan', or 'includenan'."
                                 if allow_type else "'omitnan' or 'includenan'."))
        rest.pop()
    if len(rest) > 1:
        raise MatlabError("MATLAB:TooManyInputs", "Too many input arguments.")
    if rest:
        axes = dims_arg(rest[0], fn)
        if axes is not None and not axes:
            raise MatlabError("MATLAB:getdimarg:dimensionMustBePositiveInteger",
                              "Dimension argument must be a positive integer scalar within indexing range.")
        return ReductionArgs(axes, omit, outtype, True)
    return ReductionArgs(default_axes(x.shape), omit, outtype, False)


def default_axes(shape: tuple[int, ...]) -> tuple[int, ...]:
    return (first_nonsingleton_dim(shape),)


def prepare(x: np.ndarray, axes: tuple[int, ...] | None, dim_given: bool) -> tuple[np.ndarray, tuple[int, ...]]:
    """Array and the (valid, 0-based) numpy axes to reduce.

    ``'all'`` becomes a reduction of the column vector ``x(:)``; a 0x0 input
    with the default dim reduces as a 0x1 column so the result is 1x1.
    """
    if axes is None:
        return x.reshape(-1, 1, order="F"), (0,)
    if not dim_given and x.ndim == 2 and x.shape == (0, 0):
        return x.reshape(0, 1), (0,)
    return x, tuple(a for a in axes if a < x.ndim)


def reduce_with(x: np.ndarray, ra: ReductionArgs, func: Callable[[np.ndarray, tuple[int, ...]], np.ndarray]) -> np.ndarray:
    """Apply ``func(array, axes)`` (keepdims semantics) after ``prepare``."""
    arr, axes = prepare(x, ra.axes, ra.dim_given)
    if not axes:
        return func(arr[..., np.newaxis], (arr.ndim,))[..., 0]
    return func(arr, axes)


def move_axis_last(x: np.ndarray, axis: int) -> np.ndarray:
    return np.moveaxis(x, axis, -1)


def float_work_dtype(arr: np.ndarray) -> np.dtype:
    """Working dtype of a float reduction: single stays single, else double."""
    if arr.dtype.kind == "c":
        return np.dtype(np.complex64 if arr.dtype == np.complex64 else np.complex128)
    return np.dtype(np.float32 if arr.dtype == np.float32 else np.float64)


def saturate_to(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Round half away from zero and saturate into an integer dtype."""
    info = np.iinfo(dtype)
    v = np.asarray(values, dtype=np.float64)
    r = np.where(v >= 0, np.floor(v + 0.5), np.ceil(v - 0.5))
    r = np.nan_to_num(r, nan=0.0)
    return np.clip(r, info.min, info.max).astype(dtype)


def require_float_or_int(x: np.ndarray, fn: str) -> None:
    if x.dtype.kind not in "fciub":
        raise MatlabError("MATLAB:UndefinedFunction",
                          f"Undefined function '{fn}' for input arguments of type '{class_of(x)}'.")


def real_values(v: Any, fn: str, what: str = "Input") -> np.ndarray:
    """A real numeric/logical option argument as float64 (not text, not complex)."""
    if isinstance(v, DeviceValue):
        v = v.gather()
    if type(v) not in (float, bool, np.ndarray) or (type(v) is np.ndarray and v.dtype.kind in "UcO"):
        raise MatlabError(f"MATLAB:{fn}:invalidInput", f"{what} must be real and numeric.")
    return to_array(v).astype(np.float64)


def ieee_quiet(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run ``fn`` with NumPy floating-point warnings off: NaN/Inf results are
    MATLAB semantics, not something to report on stderr."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)

    return wrapper
