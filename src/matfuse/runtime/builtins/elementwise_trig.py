"""Trigonometric and hyperbolic functions (radians and degrees).

MATLAB's branch choices for real inputs outside the real domain:
``asin(2) = pi/2 - 1.3170i`` and ``acos(2) = 0 + 1.3170i`` (the conjugates of
what NumPy's principal branch gives there); the degree functions are exact
at multiples of 90 (``sind(180) == 0``).
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._math_support import binary_inputs, finish, float_array
from matfuse.runtime.builtins.elementwise_math import (
    apply_float_unary,
    binary_spec,
    unary_spec,
)
from matfuse.runtime.registry import builtin


def _declare(name: str, real_fn: Callable, fast: Callable | None = None,
             complex_fn: Callable | None = None, needs_complex: Callable | None = None,
             doc: str = "") -> None:
    def impl(x: Any) -> Any:
        if fast is not None and type(x) is float:
            try:
                return float(fast(x))
            except (ValueError, OverflowError, ZeroDivisionError):
                pass
        return apply_float_unary(x, name, real_fn, complex_fn, needs_complex)

    impl.__doc__ = doc
    impl.__name__ = name
    builtin(name, category="elementwise", nargin=(1, 1), gpu=unary_spec(name), fusion=name)(impl)


def _outside_unit(a: np.ndarray) -> np.ndarray:
    return np.abs(a) > 1


def _asin_complex(z: np.ndarray) -> np.ndarray:
    out = np.arcsin(z)
    # Real inputs above 1: MATLAB takes the lower branch (conjugate of NumPy's).
    upper = (z.imag == 0) & (z.real > 1)
    return np.where(upper, np.conj(out), out)


def _acos_complex(z: np.ndarray) -> np.ndarray:
    out = np.arccos(z)
    upper = (z.imag == 0) & (z.real > 1)
    return np.where(upper, np.conj(out), out)


def _sec(a: np.ndarray) -> np.ndarray:
    return 1.0 / np.cos(a)


def _csc(a: np.ndarray) -> np.ndarray:
    return 1.0 / np.sin(a)


def _cot(a: np.ndarray) -> np.ndarray:
    return 1.0 / np.tan(a)


_declare("sin", np.sin, math.sin, doc="Sine of radians.")
_declare("cos", np.cos, math.cos, doc="Cosine of radians.")
_declare("tan", np.tan, math.tan, doc="Tangent of radians.")
_declare("sec", _sec, lambda x: 1.0 / math.cos(x), doc="Secant of radians.")
_declare("csc", _csc, lambda x: 1.0 / math.sin(x), doc="Cosecant of radians.")
_declare("cot", _cot, lambda x: 1.0 / math.tan(x), doc="Cotangent of radians.")
_declare("asin", np.arcsin, None, _asin_complex, _outside_unit, doc="Inverse sine.")
_declare("acos", np.arccos, None, _acos_complex, _outside_unit, doc="Inverse cosine.")
_declare("atan", np.arctan, math.atan, doc="Inverse tangent.")
_declare("sinh", np.sinh, math.sinh, doc="Hyperbolic sine.")
_declare("cosh", np.cosh, math.cosh, doc="Hyperbolic cosine.")
_declare("tanh", np.tanh, math.tanh, doc="Hyperbolic tangent.")
_declare("asinh", np.arcsinh, math.asinh, doc="Inverse hyperbolic sine.")
_declare("acosh", np.arccosh, None, np.arccosh, lambda a: a < 1, doc="Inverse hyperbolic cosine.")
_declare("atanh", np.arctanh, None, np.arctanh, _outside_unit, doc="Inverse hyperbolic tangent.")
_declare("deg2rad", lambda a: a * a.dtype.type(math.pi / 180), lambda x: x * (math.pi / 180),
         doc="Degrees to radians.")
_declare("rad2deg", lambda a: a * a.dtype.type(180 / math.pi), lambda x: x * (180 / math.pi),
         doc="Radians to degrees.")


def _degrees_reduced(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Split degrees into quadrant (0..3) and radians within [-45, 45] degrees."""
    x = np.fmod(a, 360.0)
    quadrant = np.round(x / 90.0)
    rem_deg = x - quadrant * 90.0
    return np.mod(quadrant, 4.0), rem_deg * (math.pi / 180)


def _sind_real(a: np.ndarray) -> np.ndarray:
    q, z = _degrees_reduced(a)
    s, c = np.sin(z), np.cos(z)
    out = np.select([q == 0, q == 1, q == 2], [s, c, -s], -c)
    # + 0.0 turns -0 into 0, as MATLAB prints sind(180).
    return (np.where(np.isfinite(a), out, np.nan) + 0.0).astype(a.dtype)


def _cosd_real(a: np.ndarray) -> np.ndarray:
    q, z = _degrees_reduced(a)
    s, c = np.sin(z), np.cos(z)
    out = np.select([q == 0, q == 1, q == 2], [c, -s, -c], s)
    return (np.where(np.isfinite(a), out, np.nan) + 0.0).astype(a.dtype)


def _tand_real(a: np.ndarray) -> np.ndarray:
    out = _sind_real(a) / _cosd_real(a)
    # Odd multiples of 45 degrees are exactly +-1, as in MATLAB.
    at45 = np.abs(np.fmod(a, 90.0)) == 45.0
    return np.where(at45, np.sign(out), out).astype(a.dtype)


def _declare_degrees(name: str, real_fn: Callable, complex_fn: Callable) -> None:
    def impl(x: Any) -> Any:
        arr = float_array(x, name)
        with np.errstate(all="ignore"):
            if arr.dtype.kind == "c":
                return finish(complex_fn(arr * (math.pi / 180)))
            return finish(real_fn(arr))

    impl.__doc__ = f"{name[:-1]} of an angle in degrees (exact at multiples of 90)."
    impl.__name__ = name
    builtin(name, category="elementwise", nargin=(1, 1), gpu=unary_spec(name), fusion=name)(impl)


_declare_degrees("sind", _sind_real, np.sin)
_declare_degrees("cosd", _cosd_real, np.cos)
_declare_degrees("tand", _tand_real, np.tan)


def _to_degrees(v: Any) -> Any:
    if type(v) is float:
        return v * (180 / math.pi)
    arr = np.asarray(v)
    return finish(arr * (180 / math.pi))


@builtin("asind", category="elementwise", nargin=(1, 1), gpu=unary_spec("asind"), fusion="asind")
def asind(x: Any) -> Any:
    """Inverse sine in degrees."""
    return _to_degrees(apply_float_unary(x, "asind", np.arcsin, _asin_complex, _outside_unit))


@builtin("acosd", category="elementwise", nargin=(1, 1), gpu=unary_spec("acosd"), fusion="acosd")
def acosd(x: Any) -> Any:
    """Inverse cosine in degrees."""
    return _to_degrees(apply_float_unary(x, "acosd", np.arccos, _acos_complex, _outside_unit))


@builtin("atand", category="elementwise", nargin=(1, 1), gpu=unary_spec("atand"), fusion="atand")
def atand(x: Any) -> Any:
    """Inverse tangent in degrees."""
    return _to_degrees(apply_float_unary(x, "atand", np.arctan))


@builtin("atan2", category="elementwise", nargin=(2, 2), gpu=binary_spec("atan2"), fusion="atan2")
def atan2(y: Any, x: Any) -> Any:
    """Four-quadrant inverse tangent of real y and x."""
    if type(y) is float and type(x) is float:
        return math.atan2(y, x)
    a, b, _ = binary_inputs(y, x, "atan2", allow_int=False)
    if a.dtype.kind == "c" or b.dtype.kind == "c":
        raise MatlabError("MATLAB:atan2:complexArgs", "Inputs must be real.")
    return finish(np.arctan2(a, b))
