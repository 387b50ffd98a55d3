"""Rounding, modulo and integer-division functions.

These accept integer classes (class preserved) as MATLAB does. ``mod`` has
the sign of the divisor (``mod(-1,3) = 2``) and ``mod(x,0) = x``; ``rem`` has
the sign of the dividend (``rem(-1,3) = -1``) and ``rem(x,0)`` is NaN for
floats, 0 for integers. Integer work below 64 bits is done exactly in
float64; 64-bit integers use Python integers.
"""

from __future__ import annotations

import math
from math import copysign, fmod, isfinite
from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import scalar_value, text_arg
from matfuse.runtime.builtins._math_support import (
    binary_inputs,
    finish,
    is_integer_array,
    numeric_array,
    round_half_away,
    saturate_to,
)
from matfuse.runtime.builtins.elementwise_math import binary_spec, unary_spec
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import canonical


def _rounding(name: str, np_fn: Callable, py_fn: Callable[[float], int], doc: str) -> None:
    def impl(x: Any) -> Any:
        if type(x) is float:
            if not isfinite(x):
                return x
            r = float(py_fn(x))
            # math.floor/ceil return ints: restore IEEE -0 (ceil(-0.5) is -0).
            return r if r != 0.0 else copysign(0.0, x)
        arr = numeric_array(x, name)
        if is_integer_array(arr):
            return finish(arr)
        if arr.dtype.kind == "c":
            return finish(np_fn(arr.real) + 1j * np_fn(arr.imag))
        return finish(np_fn(arr))

    impl.__doc__ = doc
    impl.__name__ = name
    builtin(name, category="elementwise", nargin=(1, 1), gpu=unary_spec(name), fusion=name)(impl)


def _round_scalar(x: float) -> float:
    whole = math.trunc(x)
    if abs(x - whole) >= 0.5:
        return float(whole + (1 if x > 0 else -1))
    return float(whole) if whole != 0 or x >= 0 else -0.0


_rounding("floor", np.floor, math.floor, "Round toward minus infinity.")
_rounding("ceil", np.ceil, math.ceil, "Round toward plus infinity.")
_rounding("fix", np.trunc, math.trunc, "Round toward zero.")


@builtin("round", category="elementwise", nargin=(1, 3), gpu=unary_spec("round"), fusion="round")
def round_(x: Any, n: Any = None, mode: Any = None) -> Any:
    """Round half away from zero; ``round(x, n)`` to n decimals,
    ``round(x, n, 'significant')`` to n significant digits."""
    if n is None:
        if type(x) is float:
            return _round_scalar(x) if isfinite(x) else x
        arr = numeric_array(x, "round")
        if is_integer_array(arr):
            return finish(arr)
        if arr.dtype.kind == "c":
            return finish(round_half_away(arr.real) + 1j * round_half_away(arr.imag))
        return finish(round_half_away(arr))
    digits = scalar_value(n, "round")
    if not math.isfinite(digits) or digits != math.floor(digits):
        raise MatlabError("MATLAB:round:InvalidDigits",
                          "The second input must be a real integer scalar.")
    kind = "decimals"
    if mode is not None:
        kind = text_arg(mode, "round", "rounding type").lower()
        if kind not in ("decimals", "significant"):
            raise MatlabError("MATLAB:round:InvalidType",
                              "The third input must be either 'significant' or 'decimals'.")
    arr = numeric_array(x, "round")
    if is_integer_array(arr):
        if digits >= 0 and kind == "decimals":
            return finish(arr)
        return finish(saturate_to(_round_digits(arr.astype(np.float64), int(digits), kind), arr.dtype))
    if arr.dtype.kind == "c":
        return finish(_round_digits(arr.real, int(digits), kind)
                      + 1j * _round_digits(arr.imag, int(digits), kind))
    return finish(_round_digits(arr, int(digits), kind))


def _round_digits(a: np.ndarray, digits: int, kind: str) -> np.ndarray:
    # Doubles carry < 17 significant digits and no decimals beyond 1e-323:
    # such roundings leave every value unchanged.
    if (kind == "significant" and digits >= 17) or (kind == "decimals" and digits > 308):
        return a
    digits = max(digits, -308)
    with np.errstate(all="ignore"):
        if kind == "significant":
            if digits <= 0:
                raise MatlabError("MATLAB:round:InvalidDigits",
                                  "The second input must be a positive integer when rounding to significant digits.")
            mag = np.floor(np.log10(np.abs(a)))
            places = np.where(np.isfinite(mag), digits - 1 - mag, 0)
            scale = np.power(10.0, places)
            out = np.where(places >= 0, round_half_away(a * scale) / scale,
                           round_half_away(a / np.power(10.0, -places)) * np.power(10.0, -places))
            return np.where(np.isfinite(a) & (a != 0), out, a).astype(a.dtype)
        if digits >= 0:
            scale = a.dtype.type(10.0 ** digits)
            out = round_half_away(a * scale) / scale
            # Huge values have no fractional digits; scaling could overflow.
            return np.where(np.isfinite(out), out, a).astype(a.dtype)
        scale = a.dtype.type(10.0 ** -digits)
        return (round_half_away(a / scale) * scale).astype(a.dtype)


# ----------------------------------------------------------------- mod / rem
_DOUBLE = np.dtype(np.float64)


def _whole_divisor_mod(a: np.ndarray, divisor: Any, trunc: bool) -> np.ndarray:
    """mod (floor) or rem (trunc) of a float array by a whole nonzero
    finite scalar: no roundoff snapping, no zero case. (Inf and NaN give NaN
    silently: ``runtime.ops`` turns NumPy's floating-point warnings off.)"""
    q = a / divisor
    (np.trunc if trunc else np.floor)(q, out=q)   # in place: a fresh array
    q *= divisor
    return np.subtract(a, q, out=q).astype(a.dtype, copy=False)


def _float_mod(a: np.ndarray, b: np.ndarray, trunc: bool) -> np.ndarray:
    """Octave/MATLAB mod (floor) or rem (trunc) for float arrays."""
    if b.size == 1:
        divisor = b.reshape(-1)[0]
        if divisor != 0 and np.isfinite(divisor) and divisor == np.round(divisor):
            return _whole_divisor_mod(a, divisor, trunc)
    with np.errstate(all="ignore"):
        q = a / b
        n = np.trunc(q) if trunc else np.floor(q)
        out = a - b * n
        # A quotient that is an integer within roundoff gives exactly 0.
        nearest = np.round(q)
        near_int = (np.round(b) != b) & (nearest != 0) & \
            (np.abs((q - nearest) / np.where(nearest == 0, 1, nearest)) < np.finfo(a.dtype).eps)
        out = np.where(near_int, 0.0, out)
        zero_div = b == 0
        if trunc:
            out = np.where(zero_div, np.nan, out)
        else:
            out = np.where(zero_div, a, out)
        return out.astype(a.dtype)


def _int_mod(a: np.ndarray, b: np.ndarray, dtype: np.dtype, trunc: bool) -> np.ndarray:
    if dtype.itemsize < 8:
        fa = a.astype(np.float64) if a.dtype.kind in "iu" else np.asarray(a, dtype=np.float64)
        fb = b.astype(np.float64) if b.dtype.kind in "iu" else np.asarray(b, dtype=np.float64)
        with np.errstate(all="ignore"):
            n = np.trunc(fa / fb) if trunc else np.floor(fa / fb)
            out = fa - fb * n
        out = np.where(fb == 0, 0.0 if trunc else fa, out)
        return saturate_to(out, dtype)
    # The double operand joins the integer class first (rounded, saturated).
    flat_a = _int_list(a, dtype)
    flat_b = _int_list(b, dtype)
    result = []
    for x, y in zip(flat_a, flat_b):
        if y == 0:
            result.append(0 if trunc else x)
            continue
        r = x % y
        if trunc and r != 0 and (r < 0) != (x < 0):
            r -= y
        result.append(r)
    return np.array(result, dtype=dtype).reshape(a.shape, order="F")


def _int_list(values: np.ndarray, dtype: np.dtype) -> list[int]:
    """Column-major elements as Python ints of ``dtype`` (doubles saturate)."""
    if values.dtype.kind not in "iu":
        values = saturate_to(values.astype(np.float64), dtype)
    return [int(v) for v in values.reshape(-1, order="F").tolist()]


def _mod_like(name: str, trunc: bool) -> Callable:
    def impl(x: Any, y: Any) -> Any:
        if type(x) is float and type(y) is float:
            if x.is_integer() and y.is_integer() and y != 0.0 and abs(x) < 9007199254740992.0:
                # Whole numbers (the loop-counter case): fmod is exact. Past
                # 2^53 MATLAB's a - m*floor(a/m) (below) holds, as for arrays:
                # mod(1e300, 17) is 0, not fmod's exact 6.
                r = fmod(x, y)
                if not trunc and r != 0.0 and (r < 0.0) != (y < 0.0):
                    r += y
                return r + 0.0
            if y == 0.0:
                return math.nan if trunc else x
            q = x / y if math.isfinite(x) and math.isfinite(y) else math.nan
            if math.isfinite(q):
                if y.is_integer() or not _near_integer(q):
                    return x - y * (math.trunc(q) if trunc else math.floor(q))
                return 0.0
        if type(x) is np.ndarray and type(y) is float and x.dtype == _DOUBLE \
                and y != 0.0 and y.is_integer():
            # A double array and a whole scalar divisor (``mod(v, 17)``):
            # no broadcasting or class combination to do.
            return canonical(_whole_divisor_mod(x, y, trunc))
        a, b, int_dtype = binary_inputs(x, y, name)
        if int_dtype is not None:
            return finish(_int_mod(a, b, int_dtype, trunc))
        if a.dtype.kind == "c" or b.dtype.kind == "c":
            raise MatlabError(f"MATLAB:{name}:complexArguments",
                              "Arguments must be real.")
        return finish(_float_mod(a, b, trunc))

    return impl


def _near_integer(q: float) -> bool:
    nearest = round(q)
    return nearest != 0 and abs((q - nearest) / nearest) < 2.220446049250313e-16


mod = builtin("mod", category="elementwise", nargin=(2, 2), gpu=binary_spec("mod"),
              fusion="mod")(_mod_like("mod", trunc=False))
mod.__doc__ = "Remainder after division, sign of the divisor; mod(x,0) = x."
rem = builtin("rem", category="elementwise", nargin=(2, 2), gpu=binary_spec("rem"),
              fusion="rem")(_mod_like("rem", trunc=True))
rem.__doc__ = "Remainder after division, sign of the dividend; rem(x,0) = NaN."


@builtin("idivide", category="elementwise", nargin=(2, 3), gpu=binary_spec("idivide"))
def idivide(x: Any, y: Any, opt: Any = None) -> Any:
    """Integer division with 'fix' (default), 'round', 'floor' or 'ceil'."""
    mode = "fix"
    if opt is not None:
        mode = text_arg(opt, "idivide", "rounding option").lower()
        if mode not in ("fix", "round", "floor", "ceil"):
            raise MatlabError("MATLAB:idivide:InvalidRoundingOption",
                              "Rounding option must be 'fix', 'round', 'floor', or 'ceil'.")
    a, b, int_dtype = binary_inputs(x, y, "idivide")
    if int_dtype is None:
        raise MatlabError("MATLAB:idivide:noIntegerInput",
                          "At least one argument must belong to an integer class.")
    if int_dtype.itemsize < 8:
        with np.errstate(all="ignore"):
            q = a.astype(np.float64) / b.astype(np.float64)
        rounder = {"fix": np.trunc, "round": round_half_away, "floor": np.floor, "ceil": np.ceil}[mode]
        with np.errstate(invalid="ignore"):
            out = rounder(q)
        return finish(saturate_to(np.where(np.isnan(out), 0.0, out), int_dtype))
    info = np.iinfo(int_dtype)
    result = []
    for xa, yb in zip(_int_list(a, int_dtype), _int_list(b, int_dtype)):
        if yb == 0:
            result.append(0 if xa == 0 else (info.max if xa > 0 else info.min))
            continue
        result.append(max(info.min, min(info.max, _int_divide(xa, yb, mode))))
    return finish(np.array(result, dtype=int_dtype).reshape(a.shape, order="F"))


def _int_divide(x: int, y: int, mode: str) -> int:
    floor_q, r = divmod(x, y)
    if mode == "floor":
        return floor_q
    if mode == "ceil":
        return floor_q + (1 if r else 0)
    if mode == "fix":
        return floor_q + (1 if r and (x < 0) != (y < 0) else 0)
    twice = 2 * abs(r)
    if twice > abs(y) or (twice == abs(y) and (x < 0) == (y < 0)):
        return floor_q + 1
    return floor_q


# ---------------------------------------------------------------- gcd / lcm
def _integer_operands(x: Any, y: Any, fn: str) -> tuple[np.ndarray, np.ndarray, np.dtype | None]:
    a, b, int_dtype = binary_inputs(x, y, fn)
    for arr in (a, b):
        if arr.dtype.kind == "c" or (arr.dtype.kind == "f" and (
                np.any(arr != np.round(arr)) or not np.all(np.isfinite(arr)))):
            raise MatlabError(f"MATLAB:{fn}:NonIntegerInput", "Inputs must be real integers.")
    return a, b, int_dtype


def _exact_pairwise(vector_fn: Callable, scalar_fn: Callable, a: np.ndarray,
                    b: np.ndarray) -> np.ndarray:
    """gcd/lcm as float64: vectorised in int64 when the values fit, else
    with Python integers (uint64 beyond int64, huge lcm results)."""
    if max(float(np.max(np.abs(a), initial=0)), float(np.max(np.abs(b), initial=0))) < 2.0 ** 31:
        return vector_fn(a.astype(np.int64), b.astype(np.int64)).astype(np.float64)
    flat = [float(scalar_fn(int(p), int(q))) for p, q in
            zip(a.reshape(-1, order="F").tolist(), b.reshape(-1, order="F").tolist())]
    return np.array(flat, dtype=np.float64).reshape(a.shape, order="F")


@builtin("gcd", category="elementwise", nargin=(2, 2), nargout=(0, 1))
def gcd(x: Any, y: Any) -> Any:
    """Greatest common divisor (nonnegative), elementwise."""
    a, b, int_dtype = _integer_operands(x, y, "gcd")
    out = _exact_pairwise(np.gcd, math.gcd, a, b)
    if int_dtype is not None:
        return finish(saturate_to(out, int_dtype))
    return finish(out.astype(a.dtype))


@builtin("lcm", category="elementwise", nargin=(2, 2))
def lcm(x: Any, y: Any) -> Any:
    """Least common multiple of nonnegative integers, elementwise."""
    a, b, int_dtype = _integer_operands(x, y, "lcm")
    if np.any(a < 0) or np.any(b < 0):
        raise MatlabError("MATLAB:lcm:InputNotPosInt", "Input arguments must contain positive integers.")
    out = _exact_pairwise(np.lcm, math.lcm, a, b)
    if int_dtype is not None:
        return finish(saturate_to(out, int_dtype))
    return finish(out.astype(a.dtype))
