"""Elementwise exponentials, logarithms, roots, abs and sign.

Real inputs outside a function's real domain give complex results, as in
MATLAB (``sqrt(-4)`` is ``0+2i``, ``log(-1)`` is ``0+3.1416i``). Python-float
inputs take a ``math``-module fast path: these run in interpreter loops.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._host_threads import map_elementwise
from matfuse.runtime.builtins._math_support import (
    binary_inputs,
    finish,
    float_array,
    numeric_array,
)
from matfuse.runtime.registry import GpuSpec, builtin


def unary_spec(op: str) -> GpuSpec:
    return GpuSpec(kind="elementwise", hook="elem_unary", op=op)


def binary_spec(op: str) -> GpuSpec:
    return GpuSpec(kind="elementwise", hook="elem_binary", op=op)


def apply_float_unary(x: Any, fn: str, real_fn: Callable[[np.ndarray], np.ndarray],
                      complex_fn: Callable[[np.ndarray], np.ndarray] | None = None,
                      needs_complex: Callable[[np.ndarray], np.ndarray] | None = None) -> Any:
    """Apply a float-only function; switch to ``complex_fn`` on the whole
    array when any real element is outside the real domain."""
    arr = float_array(x, fn)
    with np.errstate(all="ignore"):
        if arr.dtype.kind == "c":
            return finish((complex_fn or real_fn)(arr))
        if needs_complex is not None and complex_fn is not None and np.any(needs_complex(arr)):
            ctype = np.complex64 if arr.dtype == np.float32 else np.complex128
            return finish(complex_fn(arr.astype(ctype)))
        if isinstance(real_fn, np.ufunc):
            blocks = map_elementwise(real_fn, arr)     # large arrays: in parallel
            if blocks is not None:
                return finish(blocks)
        return finish(real_fn(arr))


def _float_fast(py_fn: Callable[[float], float]) -> Callable[[float], float | None]:
    """Wrap a math-module function: None when it cannot give MATLAB's answer."""

    def fast(x: float) -> float | None:
        try:
            return float(py_fn(x))
        except (ValueError, OverflowError):
            return None

    return fast


def _declare_unary(name: str, real_fn: Callable, fast: Callable | None = None,
                   complex_fn: Callable | None = None, needs_complex: Callable | None = None,
                   doc: str = "") -> None:
    """Register a float-only unary function with an optional float fast path
    (``fast(x)`` returns a float, or None to take the array path)."""

    def impl(x: Any) -> Any:
        if fast is not None and type(x) is float:
            value = fast(x)
            if value is not None:
                return value
        return apply_float_unary(x, name, real_fn, complex_fn, needs_complex)

    impl.__doc__ = doc
    impl.__name__ = name
    builtin(name, category="elementwise", nargin=(1, 1),
            gpu=unary_spec(name), fusion=name)(impl)


def _neg(a: np.ndarray) -> np.ndarray:
    return a < 0


def _positive_only(fn: Callable[[float], float]) -> Callable[[float], float | None]:
    """Fast path for logs: math.log raises on 0 and negatives, MATLAB does not."""

    def fast(x: float) -> float | None:
        if 0.0 < x < math.inf:
            return fn(x)
        return None

    return fast


_declare_unary("exp", np.exp, _float_fast(math.exp), doc="Exponential, elementwise.")
_declare_unary("expm1", np.expm1, _float_fast(math.expm1), doc="exp(x)-1, accurate for small x.")
_declare_unary("sqrt", np.sqrt, _float_fast(math.sqrt), np.sqrt, _neg,
               doc="Square root (complex for negatives).")
_declare_unary("log", np.log, _positive_only(math.log), np.log, _neg,
               doc="Natural logarithm (complex for negatives).")
_declare_unary("log10", np.log10, _positive_only(math.log10), np.log10, _neg,
               doc="Base-10 logarithm.")
_declare_unary("log1p", np.log1p, None, np.log1p, lambda a: a < -1,
               doc="log(1+x), accurate for small x.")


@builtin("log2", category="elementwise", nargin=(1, 1), nargout=(0, 2),
         wants_nargout=True, gpu=unary_spec("log2"), fusion="log2")
def log2(x: Any, nargout: int = 1) -> Any:
    """Base-2 logarithm; ``[f, e] = log2(x)`` splits x = f .* 2.^e."""
    if nargout >= 2:
        arr = float_array(x, "log2")
        if arr.dtype.kind == "c":
            arr = arr.real
        mant, expo = np.frexp(arr)
        return finish(mant), finish(expo.astype(np.float64))
    if type(x) is float and 0.0 < x < math.inf:
        return math.log2(x)
    return apply_float_unary(x, "log2", np.log2, np.log2, _neg)


@builtin("realsqrt", category="elementwise", nargin=(1, 1),
         gpu=unary_spec("realsqrt"), fusion="realsqrt")
def realsqrt(x: Any) -> Any:
    """Square root of nonnegative real input; errors on negative/complex."""
    arr = float_array(x, "realsqrt")
    if arr.dtype.kind == "c" or np.any(arr < 0):
        raise MatlabError("MATLAB:realsqrt:complexResult",
                          "Realsqrt produced complex result.")
    return finish(np.sqrt(arr))


@builtin("pow2", category="elementwise", nargin=(1, 2), gpu=unary_spec("pow2"), fusion="pow2")
def pow2(x: Any, e: Any = None) -> Any:
    """``pow2(y)`` is 2.^y; ``pow2(f, e)`` is f .* 2.^e."""
    if e is None:
        if type(x) is float:
            try:
                return math.pow(2.0, x)
            except OverflowError:
                return math.inf
        return apply_float_unary(x, "pow2", lambda a: np.power(a.dtype.type(2), a))
    a, b, _ = binary_inputs(x, e, "pow2", allow_int=False)
    with np.errstate(all="ignore"):
        return finish(a * np.exp2(b))


@builtin("nthroot", category="elementwise", nargin=(2, 2), gpu=binary_spec("nthroot"))
def nthroot(x: Any, n: Any) -> Any:
    """Real n-th root; negative x needs an odd integer n."""
    a, b, _ = binary_inputs(x, n, "nthroot", allow_int=False)
    if a.dtype.kind == "c" or b.dtype.kind == "c":
        raise MatlabError("MATLAB:nthroot:ComplexInput", "Both X and N must be real.")
    odd = (np.mod(b, 2) == 1)
    if np.any((a < 0) & ~odd):
        raise MatlabError("MATLAB:nthroot:NegXNotOddIntegerN",
                          "If X is negative, N must be an odd integer.")
    with np.errstate(all="ignore"):
        y = np.sign(a) * np.power(np.abs(a), 1.0 / b)
        # One Newton step, as MATLAB does, to make exact roots exact.
        fix = (y != 0) & np.isfinite(y) & np.isfinite(b) & (b != 0)
        corr = (np.power(y, b) - a) / (b * np.power(y, b - 1))
        y = np.where(fix & np.isfinite(corr), y - corr, y)
    return finish(y.astype(a.dtype))


@builtin("hypot", category="elementwise", nargin=(2, 2), gpu=binary_spec("hypot"), fusion="hypot")
def hypot(x: Any, y: Any) -> Any:
    """sqrt(abs(x).^2 + abs(y).^2) without overflow."""
    if type(x) is float and type(y) is float:
        return math.hypot(x, y)
    a, b, _ = binary_inputs(x, y, "hypot", allow_int=False)
    return finish(np.hypot(np.abs(a), np.abs(b)))


@builtin("abs", category="elementwise", nargin=(1, 1), gpu=unary_spec("abs"), fusion="abs")
def abs_(x: Any) -> Any:
    """Absolute value / complex magnitude (integer classes saturate)."""
    if type(x) is float:
        return math.fabs(x)
    arr = numeric_array(x, "abs")
    if arr.dtype.kind == "i":
        info = np.iinfo(arr.dtype)
        out = np.abs(arr)
        return finish(np.where(arr == info.min, info.max, out).astype(arr.dtype))
    return finish(np.abs(arr))


@builtin("sign", category="elementwise", nargin=(1, 1), gpu=unary_spec("sign"), fusion="sign")
def sign(x: Any) -> Any:
    """Signum: -1, 0 or 1 (x./abs(x) for complex)."""
    if type(x) is float:
        if x > 0.0:
            return 1.0
        if x < 0.0:
            return -1.0
        return 0.0 if x == 0.0 else x
    arr = numeric_array(x, "sign")
    if arr.dtype.kind == "c":
        with np.errstate(all="ignore"):
            mag = np.abs(arr)
            return finish(np.where(mag == 0, 0, arr / np.where(mag == 0, 1, mag)).astype(arr.dtype))
    return finish(np.sign(arr))


@builtin("nextpow2", category="elementwise", nargin=(1, 1))
def nextpow2(x: Any) -> Any:
    """Exponent of the next power of two: smallest p with 2^p >= abs(x)."""
    arr = numeric_array(x, "nextpow2")
    # magnitudes in double first: np.abs wraps int8(-128) to itself
    mag = np.abs(arr.astype(np.complex128 if arr.dtype.kind == "c" else np.float64))
    mant, expo = np.frexp(mag)
    # frexp gives mag = mant * 2^expo with mant in [0.5, 1): exact powers of
    # two have mant == 0.5 and need one less.
    p = np.where(mant == 0.5, expo - 1, expo).astype(np.float64)
    p = np.where(mag == 0, 0.0, p)
    p = np.where(np.isinf(mag), np.inf, np.where(np.isnan(mag), np.nan, p))
    if arr.dtype.kind in "iu":
        return finish(p.astype(arr.dtype))
    return finish(p.astype(np.float32 if arr.dtype in (np.float32, np.complex64) else np.float64))


@builtin("reallog", category="elementwise", nargin=(1, 1), gpu=unary_spec("reallog"),
         fusion="reallog")
def reallog(x: Any) -> Any:
    """Natural logarithm of nonnegative real input; errors on negatives."""
    arr = float_array(x, "reallog")
    if arr.dtype.kind == "c" or np.any(arr < 0):
        raise MatlabError("MATLAB:reallog:complexResult", "Reallog produced complex result.")
    with np.errstate(divide="ignore"):
        return finish(np.log(arr))


@builtin("realpow", category="elementwise", nargin=(2, 2), gpu=binary_spec("realpow"))
def realpow(x: Any, y: Any) -> Any:
    """Elementwise power that must stay real (errors where x.^y is complex)."""
    a, b, _ = binary_inputs(x, y, "realpow", allow_int=False)
    if a.dtype.kind == "c" or b.dtype.kind == "c" or np.any((a < 0) & (b != np.round(b))):
        raise MatlabError("MATLAB:realpow:complexResult", "Realpow produced complex result.")
    with np.errstate(all="ignore"):
        return finish(np.power(a, b))
