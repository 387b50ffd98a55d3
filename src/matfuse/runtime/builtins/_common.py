"""Argument helpers shared by builtin declarations.

Every builtin module uses these instead of re-parsing MATLAB's conventions:
size arguments (``zeros(2)``, ``zeros(2,3)``, ``zeros([2 3])``), class and
``'like'`` options, dimension arguments, flags such as ``'omitnan'``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._limits import check_shape
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CLASS_DTYPES,
    DeviceValue,
    StringArray,
    char_codes,
    class_of,
    element_class,
    is_char,
    to_array,
    to_str,
)

CLASS_NAMES = frozenset(CLASS_DTYPES) - {"char"}


def is_text(v: Any) -> bool:
    """A char row vector or a string scalar."""
    if is_char(v):
        return v.ndim == 2 and v.shape[0] <= 1
    return isinstance(v, StringArray) and v.data.size == 1


def text_arg(v: Any, fn: str, what: str = "argument") -> str:
    if not is_text(v):
        raise MatlabError(f"MATLAB:{fn}:invalidInput",
                          f"{what[0].upper() + what[1:]} must be a character vector or string scalar.")
    return to_str(v)


def numeric_values(v: Any) -> np.ndarray:
    """An argument as an ndarray whose chars are their character codes (as
    double): MATLAB reads a char in a numeric argument as its code ('5' is
    53), while NumPy would parse the text ('5' -> 5) or fail ('a')."""
    if isinstance(v, DeviceValue):
        v = v.gather()
    arr = to_array(v)
    if arr.dtype == CHAR_DTYPE:
        return char_codes(arr).astype(np.float64)
    return arr


def scalar_value(v: Any, fn: str) -> float:
    """A real numeric scalar argument as a Python float."""
    if type(v) is float:
        return v
    if type(v) is bool:
        return float(v)
    if isinstance(v, DeviceValue):
        v = v.gather()
    arr = to_array(v)
    if arr.size != 1:
        raise MatlabError(f"MATLAB:{fn}:scalarRequired", "Input must be a scalar.")
    if arr.dtype.kind == "U":
        # A char is its code point ('5' is 53); the view keeps NUL characters.
        return float(arr.reshape(-1).view(np.uint32)[0])
    value = arr.reshape(-1)[0]
    if np.iscomplexobj(value):
        value = value.real
    return float(value)


def int_value(v: Any, fn: str) -> int:
    """An integer-valued real scalar (for counts, dims, indices)."""
    x = scalar_value(v, fn)
    if not math.isfinite(x) or x != math.floor(x):
        raise MatlabError(f"MATLAB:{fn}:nonInteger", "Input must be an integer.")
    return int(x)


def split_trailing_options(args: list[Any], names: tuple[str, ...]) -> tuple[list[Any], list[str]]:
    """Remove trailing text arguments whose lowercase value is in ``names``.

    Returns (remaining args, found option names in order, lowercased).
    """
    rest = list(args)
    found: list[str] = []
    while rest and is_text(rest[-1]) and to_str(rest[-1]).lower() in names:
        found.insert(0, to_str(rest.pop()).lower())
    return rest, found


def parse_class_args(args: list[Any], fn: str,
                     default: str = "double") -> tuple[list[Any], str, Any]:
    """Strip ``'single'``-style class names and ``'like', p`` from constructor args.

    Returns (remaining args, MATLAB class, like-prototype or None). With
    ``'like'``, the class is the prototype's element class and the caller
    should honour its complexity and device residency.
    """
    rest = list(args)
    cls = default
    like = None
    i = 0
    while i < len(rest):
        a = rest[i]
        if is_text(a):
            word = to_str(a)
            low = word.lower()
            if low == "like":
                if i + 1 >= len(rest):
                    raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
                like = rest[i + 1]
                cls = element_class(like)
                if cls not in CLASS_DTYPES:
                    raise MatlabError("MATLAB:UndefinedFunction",
                                      f"Undefined function '{fn}' for input arguments of "
                                      f"type '{cls}'.")
                del rest[i:i + 2]
                continue
            if word in CLASS_NAMES or low == "gpuarray":
                cls = word if word in CLASS_NAMES else cls
                if low == "gpuarray":
                    like = like if like is not None else "gpuArray"
                del rest[i]
                continue
            raise MatlabError(f"MATLAB:{fn}:invalidInput",
                              f"Invalid option '{word}' for {fn}.")
        i += 1
    return rest, cls, like


def parse_size_args(args: list[Any], fn: str, itemsize: int = 1) -> tuple[int, ...]:
    """MATLAB size arguments: ``()`` -> 1x1, ``(n)`` -> nxn, ``(m,n,...)``,
    ``([m n ...])``. Negative sizes count as 0.

    The shape is validated by ``_limits.check_shape`` (sizes too large for
    the program or for memory at ``itemsize`` bytes per element get
    MATLAB's errors), so no constructor can allocate an impossible array.
    """
    shape = _parse_size_args(args, fn)
    check_shape(shape, itemsize)
    return shape


def _parse_size_args(args: list[Any], fn: str) -> tuple[int, ...]:
    if not args:
        return (1, 1)
    if len(args) == 1:
        arr = numeric_values(args[0])
        if arr.size == 1:
            n = _size_int(arr.reshape(-1)[0], fn)
            return (n, n)
        if arr.ndim == 2 and min(arr.shape) == 1 and arr.size >= 1:
            dims = [_size_int(x, fn) for x in arr.reshape(-1)]
            return _normalize(dims)
        raise MatlabError("MATLAB:getReshapeDims:notSameNumel" if arr.size == 0 else f"MATLAB:{fn}:invalidSize",
                          "Size vector must be a row vector with integer elements.")
    dims = []
    for a in args:
        arr = numeric_values(a)
        if arr.size != 1:
            raise MatlabError("MATLAB:dimensionsMustBeScalar" if arr.size else "MATLAB:emptyDimensions",
                              "Size inputs must be scalar.")
        dims.append(_size_int(arr.reshape(-1)[0], fn))
    return _normalize(dims)


def _size_int(x: Any, fn: str) -> int:
    if np.iscomplexobj(x):
        x = x.real
    value = float(x)
    if math.isnan(value):
        raise MatlabError("MATLAB:NonIntegerInput", "Size inputs must be integers.")
    if math.isinf(value):
        raise MatlabError("MATLAB:array:SizeLimitExceeded",
                          "Requested array exceeds the maximum possible variable size.")
    if value != math.floor(value):
        raise MatlabError("MATLAB:NonIntegerInput", "Size inputs must be integers.")
    return max(int(value), 0)


def _normalize(dims: list[int]) -> tuple[int, ...]:
    while len(dims) > 2 and dims[-1] == 1:
        dims.pop()
    if len(dims) < 2:
        dims = dims + [1] * (2 - len(dims))
    return tuple(dims)


def first_nonsingleton_dim(shape: tuple[int, ...]) -> int:
    """MATLAB's default dimension (0-based): first dim whose size is not 1."""
    for i, d in enumerate(shape):
        if d != 1:
            return i
    return 0


def dim_arg(v: Any, fn: str) -> int:
    """A 1-based dimension argument as a 0-based int, with MATLAB's error."""
    try:
        d = int_value(v, fn)
    except MatlabError:
        d = 0
    if d < 1:
        raise MatlabError("MATLAB:getdimarg:dimensionMustBePositiveInteger",
                          "Dimension argument must be a positive integer scalar within indexing range.")
    return d - 1


def dims_arg(v: Any, fn: str) -> tuple[int, ...] | None:
    """``dim``, a vector of dims, or ``'all'`` (-> None) as 0-based dims."""
    if is_text(v):
        if to_str(v).lower() == "all":
            return None
        raise MatlabError(f"MATLAB:{fn}:invalidDim", f"Invalid dimension argument for {fn}.")
    arr = numeric_values(v)
    if arr.size == 1:
        return (dim_arg(v, fn),)
    out = []
    for x in arr.reshape(-1, order="F"):
        out.append(dim_arg(float(x), fn))
    if len(set(out)) != len(out):
        raise MatlabError("MATLAB:getdimarg:vecDimsMustBeUniquePositiveIntegers",
                          "Dimension argument must be a positive integer scalar or a vector of unique positive integers.")
    return tuple(out)


def numeric_arg(v: Any, fn: str) -> np.ndarray:
    """Numeric/logical/char input as an ndarray, or MATLAB's type error."""
    if type(v) is float or type(v) is bool or type(v) is np.ndarray:
        return to_array(v)
    raise MatlabError("MATLAB:UndefinedFunction",
                      f"Undefined function '{fn}' for input arguments of type '{class_of(v)}'.")

