"""Complex parts and floating-point class tests: real imag conj angle complex
isnan isinf isfinite."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._math_support import (
    binary_inputs,
    finish,
    float_array,
    numeric_array,
)
from matfuse.runtime.builtins.elementwise_math import unary_spec
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import canonical


@builtin("real", category="elementwise", nargin=(1, 1), gpu=unary_spec("real"), fusion="real")
def real(x: Any) -> Any:
    """Real part (class preserved; char/logical become double)."""
    if type(x) is float:
        return x
    arr = numeric_array(x, "real")
    return finish(np.ascontiguousarray(arr.real) if arr.dtype.kind == "c" else arr)


@builtin("imag", category="elementwise", nargin=(1, 1), gpu=unary_spec("imag"), fusion="imag")
def imag(x: Any) -> Any:
    """Imaginary part (zeros for real input)."""
    if type(x) is float:
        return 0.0
    arr = numeric_array(x, "imag")
    if arr.dtype.kind == "c":
        return finish(np.ascontiguousarray(arr.imag))
    return finish(np.zeros_like(arr))


@builtin("conj", category="elementwise", nargin=(1, 1), gpu=unary_spec("conj"), fusion="conj")
def conj(x: Any) -> Any:
    """Complex conjugate."""
    if type(x) is float:
        return x
    arr = numeric_array(x, "conj")
    return finish(np.conj(arr))


@builtin("angle", category="elementwise", nargin=(1, 1), gpu=unary_spec("angle"), fusion="angle")
def angle(x: Any) -> Any:
    """Phase angle in radians, atan2(imag(z), real(z))."""
    if type(x) is float:
        return math.pi if x < 0 else 0.0 if x == x else x
    arr = float_array(x, "angle")
    return finish(np.angle(arr).astype(arr.real.dtype))


@builtin("complex", category="elementwise", nargin=(1, 2))
def complex_(a: Any, b: Any = None) -> Any:
    """Complex value from real and imaginary parts; stays complex even when
    the imaginary part is zero (no narrowing, as in MATLAB)."""
    if b is None:
        arr = numeric_array(a, "complex")
        if arr.dtype.kind == "c":
            return canonical(arr)
        # Integer complex is not representable in the value model: use double.
        ctype = np.complex64 if arr.dtype == np.float32 else np.complex128
        return canonical(arr.astype(ctype))
    x, y, _ = binary_inputs(a, b, "complex")
    if x.dtype.kind == "c" or y.dtype.kind == "c":
        raise MatlabError("MATLAB:complex:invalidRealPartInput",
                          "Input A must be numeric and real.")
    single = x.dtype == np.float32 or y.dtype == np.float32
    ctype = np.complex64 if single else np.complex128
    out = np.empty(x.shape, dtype=ctype)
    out.real = x
    out.imag = y
    return canonical(out)


def _class_test(name: str, np_fn: Any, py_fn: Any, doc: str) -> None:
    def impl(x: Any) -> Any:
        if type(x) is float:
            return py_fn(x)
        if type(x) is bool:
            return bool(py_fn(1.0))
        arr = numeric_array(x, name)
        if arr.dtype.kind in "iu":
            fill = name == "isfinite"
            return finish(np.full(arr.shape, fill, dtype=bool))
        return finish(np_fn(arr))

    impl.__doc__ = doc
    impl.__name__ = name
    builtin(name, category="elementwise", nargin=(1, 1), gpu=unary_spec(name), fusion=name)(impl)


_class_test("isnan", np.isnan, math.isnan, "True for NaN elements.")
_class_test("isinf", np.isinf, math.isinf, "True for infinite elements.")
_class_test("isfinite", np.isfinite, math.isfinite, "True for finite elements.")
