"""Vector products and norms: dot, cross, norm, vecnorm."""

from __future__ import annotations

import math

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._classrules import drop_zero_imag
from matfuse.runtime.builtins._common import dim_arg, first_nonsingleton_dim, is_text, scalar_value
from matfuse.runtime.builtins._reduction_args import ieee_quiet, numeric_input
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import canonical, to_str


def _float(arr: np.ndarray) -> np.ndarray:
    if arr.dtype.kind in "fc":
        return arr
    if arr.dtype.kind in "iu":
        raise MatlabError("MATLAB:norm:invalidType", "Input must be single or double.")
    return arr.astype(np.float64)


def _is_vector(a: np.ndarray) -> bool:
    return a.ndim == 2 and min(a.shape) == 1


@builtin("dot", category="linear_algebra", nargin=(2, 3),
         gpu=GpuSpec(kind="reduction", hook="reduce", op="dot"))
def dot(a: Any, b: Any, dim: Any = None) -> Any:
    """Dot product: sum(conj(a) .* b) along the first non-singleton dim; real
    when every imaginary part of conj(a) .* b is zero (dot(x, x))."""
    x = numeric_input(a, "dot")
    y = numeric_input(b, "dot")
    if dim is None and _is_vector(x) and _is_vector(y) and x.size == y.size:
        x = x.reshape(-1, 1, order="F")
        y = y.reshape(-1, 1, order="F")
    if x.shape != y.shape:
        raise MatlabError("MATLAB:dot:InputSizeMismatch", "A and B must be same size.")
    axis = dim_arg(dim, "dot") if dim is not None else first_nonsingleton_dim(x.shape)
    single = x.dtype in (np.float32, np.complex64) or y.dtype in (np.float32, np.complex64)
    x = x.astype(np.result_type(x.dtype, np.float32 if single else np.float64))
    if single and y.dtype.kind in "fc":
        y = y.astype(np.complex64 if y.dtype.kind == "c" else np.float32)
    prod = drop_zero_imag(np.conj(x) * y)
    if axis >= prod.ndim:
        return canonical(prod)
    return canonical(np.sum(prod, axis=axis, keepdims=True))


@builtin("cross", category="linear_algebra", nargin=(2, 3))
@ieee_quiet
def cross(a: Any, b: Any, dim: Any = None) -> Any:
    """Cross product of 3-element vectors (or along dim of length 3)."""
    x = _float(numeric_input(a, "cross"))
    y = _float(numeric_input(b, "cross"))
    bad = MatlabError("MATLAB:cross:InvalidDimAorB",
                      "A and B must be of length 3 in the dimension in which the cross product is taken.")
    if dim is None and _is_vector(x) and _is_vector(y) and x.size == 3 and y.size == 3:
        out = np.cross(x.reshape(-1), y.reshape(-1))
        return canonical(out.reshape(x.shape))
    if x.shape != y.shape:
        raise MatlabError("MATLAB:cross:InputSizeMismatch", "A and B must be of the same size.")
    if dim is not None:
        axis = dim_arg(dim, "cross")
    else:
        axis = next((i for i, d in enumerate(x.shape) if d == 3), -1)
    if axis < 0 or axis >= x.ndim or x.shape[axis] != 3:
        raise bad
    return canonical(np.cross(x, y, axis=axis))


def _p_arg(p: Any) -> float | str:
    if is_text(p):
        word = to_str(p).lower()
        if word in ("fro", "inf"):
            return word if word == "fro" else np.inf
        if word == "-inf":
            return -np.inf
        raise MatlabError("MATLAB:norm:unknownNorm", "The only matrix norms available are 1, 2, inf, and 'fro'.")
    return scalar_value(p, "norm")


def vector_norm(v: np.ndarray, p: float | str, axis: int | None = None) -> np.ndarray:
    """p-norm of ``v`` over ``axis`` (None: all), keepdims when an axis is given."""
    a = np.abs(v).astype(np.float32 if v.dtype in (np.float32, np.complex64) else np.float64)
    kd = axis is not None
    if p == "fro" or p == 2:
        scale = np.max(a, axis=axis, keepdims=kd, initial=0.0)
        safe = np.where(scale == 0, 1, scale)
        with np.errstate(invalid="ignore"):
            out = safe * np.sqrt(np.sum((a / safe) ** 2, axis=axis, keepdims=kd))
            out = np.where(scale == 0, 0, out)
            out = np.where(np.isinf(scale), np.inf, out)
            return np.where(np.any(np.isnan(a), axis=axis, keepdims=kd), np.nan, out)
    if p == np.inf:
        return np.max(a, axis=axis, keepdims=kd, initial=0.0)
    if p == -np.inf:
        return np.min(a, axis=axis, keepdims=kd, initial=np.inf)
    if p == 1:
        return np.sum(a, axis=axis, keepdims=kd)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        return np.sum(a ** p, axis=axis, keepdims=kd) ** (1.0 / np.float64(p))


@builtin("norm", category="linear_algebra", nargin=(1, 2),
         gpu=GpuSpec(kind="reduction", hook="reduce", op="norm"))
def norm(x: Any, p: Any = None) -> Any:
    """Vector p-norm or matrix norm (1, 2, Inf, 'fro')."""
    arr = _float(numeric_input(x, "norm"))
    if arr.ndim > 2:
        raise MatlabError("MATLAB:norm:inputMustBe2D", "Input must be 2-D.")
    pp: float | str = 2.0 if p is None else _p_arg(p)
    out_dtype = np.float32 if arr.dtype in (np.float32, np.complex64) else np.float64
    if arr.size == 0:
        return canonical(np.zeros((1, 1), dtype=out_dtype))
    if _is_vector(arr):
        if pp == 2 and arr.dtype == np.float64 and arr.size <= 64:
            # small real double vector: math.hypot is exact-scaled and fast
            values = arr.ravel().tolist()
            length = math.hypot(*values)
            if math.isinf(length) and any(v != v for v in values):
                return math.nan
            return length
        return canonical(np.asarray(vector_norm(arr, pp)).astype(out_dtype).reshape(1, 1))
    a = arr.astype(np.complex128 if arr.dtype.kind == "c" else np.float64)
    if pp == 2:
        if not np.all(np.isfinite(a)):
            value = np.nan if np.any(np.isnan(a)) else np.inf
        else:
            value = np.linalg.norm(a, 2)
    elif pp == 1:
        value = np.max(np.sum(np.abs(a), axis=0))
    elif pp == np.inf:
        value = np.max(np.sum(np.abs(a), axis=1))
    elif pp == "fro":
        value = vector_norm(a, "fro")
    else:
        raise MatlabError("MATLAB:norm:unknownNorm",
                          "The only matrix norms available are 1, 2, inf, and 'fro'.")
    return canonical(np.array([[value]], dtype=out_dtype))


@builtin("vecnorm", category="linear_algebra", nargin=(1, 3))
def vecnorm(x: Any, p: Any = None, dim: Any = None) -> Any:
    """Vector-wise norm: vecnorm(A, p, dim) (default p = 2, first non-singleton dim)."""
    arr = _float(numeric_input(x, "vecnorm"))
    pp: float | str = 2.0 if p is None or (hasattr(p, "size") and p.size == 0) else _p_arg(p)
    if isinstance(pp, float) and not (pp > 0):
        raise MatlabError("MATLAB:vecnorm:unknownNorm",
                          "Norm type must be 1, 2, Inf, or a positive scalar.")
    axis = dim_arg(dim, "vecnorm") if dim is not None else first_nonsingleton_dim(arr.shape)
    if axis >= arr.ndim:
        return canonical(np.abs(arr))
    out = vector_norm(arr, pp, axis)
    return canonical(np.asarray(out))
