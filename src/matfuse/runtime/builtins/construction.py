"""Array construction: zeros ones eye true false nan inf pi eps and the
numeric limits (realmax realmin intmax intmin flintmax).

All take MATLAB size arguments (``f(n)``, ``f(m,n,...)``, ``f([m n])``) and
class arguments (``'single'``, ``'like', p``, ``'gpuArray'``) parsed by the
shared helpers. A ``'like'`` prototype that lives on a device (or the
``'gpuArray'`` class name) moves the result there via the accelerate layer.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import (
    is_text,
    parse_class_args,
    parse_size_args,
)
from matfuse.runtime.builtins._math_support import check_allocation, numeric_array
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import (
    CLASS_DTYPES,
    INTEGER_CLASSES,
    DeviceValue,
    canonical,
    is_complex_value,
    to_str,
)
from matfuse.runtime.device_router import device_router


def _fill_spec(op: str) -> GpuSpec:
    return GpuSpec(kind="construction", hook="fill", op=op)


def _on_device(like: Any) -> bool:
    """Whether ``like`` asks for a device result (a device prototype or the
    'gpuArray' class name)."""
    return isinstance(like, DeviceValue) or (isinstance(like, str) and like == "gpuArray")


def place_like(value: Any, like: Any) -> Any:
    """Honour a device ``'like'`` prototype (or the 'gpuArray' class name)."""
    if not _on_device(like):
        return value
    return device_router().to_device_like(value, like)


def _result_dtype(cls: str, like: Any, fn: str, allowed: tuple[str, ...] | None = None) -> np.dtype:
    if allowed is not None and cls not in allowed:
        raise MatlabError(f"MATLAB:{fn}:invalidInputClass",
                          "Trailing string input must be 'single' or 'double'.")
    dtype = CLASS_DTYPES[cls]
    # A complex host prototype gives a complex result (zeros('like', 1i)).
    if like is not None and not isinstance(like, (DeviceValue, str)) and is_complex_value(like):
        dtype = np.dtype(np.complex64 if cls == "single" else np.complex128)
    elif isinstance(like, DeviceValue) and like.is_complex():
        dtype = np.dtype(np.complex64 if cls == "single" else np.complex128)
    return dtype


def _filled(args: tuple[Any, ...], fn: str, value: Any, default: str = "double",
            allowed: tuple[str, ...] | None = None) -> Any:
    rest, cls, like = parse_class_args(list(args), fn, default)
    dtype = _result_dtype(cls, like, fn, allowed)
    shape = parse_size_args(rest, fn, dtype.itemsize)
    if dtype.kind in "iu" and isinstance(value, float) and not math.isfinite(value):
        raise MatlabError(f"MATLAB:{fn}:invalidInputClass",
                          "Trailing string input must be 'single' or 'double'.")
    check_allocation(shape, dtype.itemsize)
    on_device = _device_filled(shape, value, dtype, like)
    if on_device is not None:
        return on_device
    out = np.full(shape, value, dtype=dtype)
    return place_like(canonical(out), like)


def _device_filled(shape: tuple[int, ...], value: Any, dtype: np.dtype, like: Any) -> Any:
    """The constant array made directly on the device for a device
    ``'like'``/``'gpuArray'`` (no host array), or None."""
    if not _on_device(like):
        return None
    dims = [int(d) for d in shape]
    while len(dims) > 2 and dims[-1] == 1:
        dims.pop()
    while len(dims) < 2:
        dims.append(1)
    return device_router().fill_like(tuple(dims), value, dtype, like)


@builtin("zeros", category="construction", gpu=_fill_spec("zeros"), fusion="zeros")
def zeros(*args: Any) -> Any:
    """Array of zeros: zeros(n), zeros(m,n,...), zeros(sz), 'like'/class."""
    if not args:
        return 0.0
    if len(args) == 2 and type(args[0]) is float and type(args[1]) is float:
        m, n = args
        if 0 <= m < 65536 and 0 <= n < 65536 and m * n <= 16777216.0 and m == int(m) and n == int(n):
            return 0.0 if m == 1 and n == 1 else np.zeros((int(m), int(n)))
    return _filled(args, "zeros", 0)


@builtin("ones", category="construction", gpu=_fill_spec("ones"), fusion="ones")
def ones(*args: Any) -> Any:
    """Array of ones: ones(n), ones(m,n,...), ones(sz), 'like'/class."""
    if not args:
        return 1.0
    return _filled(args, "ones", 1)


@builtin("nan", category="construction", aliases=("NaN",), gpu=_fill_spec("nan"), fusion="nan")
def nan(*args: Any) -> Any:
    """Array of NaN (double or single)."""
    if not args:
        return math.nan
    return _filled(args, "NaN", math.nan, allowed=("double", "single"))


@builtin("inf", category="construction", aliases=("Inf",), gpu=_fill_spec("inf"), fusion="inf")
def inf(*args: Any) -> Any:
    """Array of Inf (double or single)."""
    if not args:
        return math.inf
    return _filled(args, "Inf", math.inf, allowed=("double", "single"))


@builtin("pi", category="construction", gpu=_fill_spec("pi"))
def pi(*args: Any) -> Any:
    """The constant pi, optionally as an array or single."""
    if not args:
        return math.pi
    return _filled(args, "pi", math.pi, allowed=("double", "single"))


def _logical_filled(args: tuple, name: str, value: bool) -> Any:
    """true/false: a scalar with no arguments, else a logical array of `value`."""
    if not args:
        return value
    rest, _, like = parse_class_args(list(args), name, "logical")
    shape = parse_size_args(rest, name)
    check_allocation(shape, 1)
    on_device = _device_filled(shape, value, np.dtype(bool), like)
    if on_device is not None:
        return on_device
    return place_like(canonical(np.full(shape, value, dtype=bool)), like)


@builtin("true", category="construction", gpu=_fill_spec("true"))
def true(*args: Any) -> Any:
    """Logical array of true."""
    return _logical_filled(args, "true", True)


@builtin("false", category="construction", gpu=_fill_spec("false"))
def false(*args: Any) -> Any:
    """Logical array of false."""
    return _logical_filled(args, "false", False)


@builtin("eye", category="construction", gpu=_fill_spec("eye"))
def eye(*args: Any) -> Any:
    """Identity matrix: eye(n), eye(m,n), eye([m n]), with class/'like'."""
    rest, cls, like = parse_class_args(list(args), "eye")
    dtype = _result_dtype(cls, like, "eye")
    shape = parse_size_args(rest, "eye", dtype.itemsize)
    if len(shape) > 2:
        raise MatlabError("MATLAB:eye:tooManyDims", "N-dimensional arrays are not supported.")
    check_allocation(shape, dtype.itemsize)
    out = np.eye(shape[0], shape[1], dtype=dtype)
    return place_like(canonical(out), like)


# ------------------------------------------------------------ numeric limits
def _float_class_arg(args: tuple[Any, ...], fn: str) -> tuple[list[Any], str, Any]:
    rest, cls, like = parse_class_args(list(args), fn)
    if cls not in ("double", "single"):
        raise MatlabError(f"MATLAB:{fn}:invalidClassName",
                          "Class name must be 'double' or 'single'.")
    return rest, cls, like


def _limit(args: tuple[Any, ...], fn: str, double_value: float, single_value: float) -> Any:
    rest, cls, like = _float_class_arg(args, fn)
    value = single_value if cls == "single" else double_value
    if not rest and cls == "double" and like is None:
        return double_value
    shape = parse_size_args(rest, fn)
    check_allocation(shape, CLASS_DTYPES[cls].itemsize)
    return place_like(canonical(np.full(shape, value, dtype=CLASS_DTYPES[cls])), like)


@builtin("realmax", category="construction")
def realmax(*args: Any) -> Any:
    """Largest finite floating-point number ('double' or 'single')."""
    return _limit(args, "realmax", float(np.finfo(np.float64).max), float(np.finfo(np.float32).max))


@builtin("realmin", category="construction")
def realmin(*args: Any) -> Any:
    """Smallest normalized positive floating-point number."""
    return _limit(args, "realmin", float(np.finfo(np.float64).tiny), float(np.finfo(np.float32).tiny))


@builtin("flintmax", category="construction")
def flintmax(*args: Any) -> Any:
    """Largest consecutive integer in floating point (2^53, or 2^24 single)."""
    return _limit(args, "flintmax", 2.0 ** 53, 2.0 ** 24)


@builtin("eps", category="construction")
def eps(*args: Any) -> Any:
    """Floating-point relative accuracy: eps, eps(x) (spacing at x),
    eps('single'), eps(m, n, class)."""
    if not args:
        return 2.0 ** -52
    if len(args) == 1 and not is_text(args[0]):
        x = args[0]
        if type(x) is float:
            return math.ulp(x) if math.isfinite(x) else math.nan
        arr = numeric_array(x, "eps")
        if arr.dtype.kind not in "fc":
            raise MatlabError("MATLAB:eps:invalidClassName",
                              "Class name must be 'double' or 'single'.")
        mag = np.abs(arr).astype(np.float32 if arr.dtype in (np.float32, np.complex64) else np.float64)
        with np.errstate(invalid="ignore"):
            return canonical(np.spacing(mag))
    return _limit(args, "eps", 2.0 ** -52, float(np.finfo(np.float32).eps))


def _int_class(args: tuple[Any, ...], fn: str) -> tuple[str, Any]:
    if not args:
        return "int32", None
    if len(args) == 2 and is_text(args[0]) and to_str(args[0]).lower() == "like":
        proto = args[1]
        cls = proto.underlying_class() if isinstance(proto, DeviceValue) else \
            np.asarray(proto).dtype.name if type(proto) is np.ndarray else ""
        if cls not in INTEGER_CLASSES:
            raise MatlabError(f"MATLAB:{fn}:invalidClassName",
                              "Class name must be an integer class name.")
        return cls, proto
    if len(args) == 1 and is_text(args[0]):
        cls = to_str(args[0])
        if cls not in INTEGER_CLASSES:
            raise MatlabError(f"MATLAB:{fn}:invalidClassName",
                              "Class name must be an integer class name.")
        return cls, None
    raise MatlabError("MATLAB:TooManyInputs", "Too many input arguments.")


@builtin("intmax", category="construction", nargin=(0, 2))
def intmax(*args: Any) -> Any:
    """Largest value of an integer class (default 'int32')."""
    cls, like = _int_class(args, "intmax")
    dtype = CLASS_DTYPES[cls]
    return place_like(np.full((1, 1), np.iinfo(dtype).max, dtype=dtype), like)


@builtin("intmin", category="construction", nargin=(0, 2))
def intmin(*args: Any) -> Any:
    """Smallest value of an integer class (default 'int32')."""
    cls, like = _int_class(args, "intmin")
    dtype = CLASS_DTYPES[cls]
    return place_like(np.full((1, 1), np.iinfo(dtype).min, dtype=dtype), like)
