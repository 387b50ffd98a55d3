"""Elementwise hooks of the CUDA provider on CuPy ufuncs (MATLAB semantics).

Mirrors ``providers/numpy_kernels.py`` (the oracle) op for op: implicit
expansion pads shapes on the right (MATLAB) before CuPy broadcasts; non-logical
ops compute in the result's float type (double for integer results, which
then round half away and saturate through the provider's ``cast_to``).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.accelerate.providers._host import single_if_mixed
from matfuse.accelerate_api import Unsupported

COMPARE_OR_LOGIC = frozenset({"eq", "ne", "lt", "le", "gt", "ge", "and", "or", "xor"})


def _binary_table(cp: Any, p: Any) -> dict[str, Callable[[Any, Any], Any]]:
    return {
        "plus": cp.add, "minus": cp.subtract, "times": cp.multiply,
        "rdivide": cp.true_divide, "ldivide": lambda a, b: cp.true_divide(b, a),
        "power": cp.power, "eq": cp.equal, "ne": cp.not_equal, "lt": cp.less,
        "le": cp.less_equal, "gt": cp.greater, "ge": cp.greater_equal,
        "and": lambda a, b: cp.logical_and(a != 0, b != 0),
        "or": lambda a, b: cp.logical_or(a != 0, b != 0),
        "xor": lambda a, b: cp.logical_xor(a != 0, b != 0),
        "atan2": cp.arctan2, "hypot": lambda a, b: _hypot(cp, a, b), "max": cp.fmax, "min": cp.fmin,
        "mod": lambda a, b: _mod(cp, p, a, b), "rem": lambda a, b: _mod(cp, p, a, b, "rem"),
    }


def _complex(cp: Any, re: Any, im: Any, dt: np.dtype) -> Any:
    """MATLAB ``complex(re, im)`` of real operands (parts set separately:
    ``re + 1j*im`` would turn an infinite imaginary part into NaN + Inf*i)."""
    re, im = matlab_align(re, im)
    if getattr(re, "dtype", np.dtype(float)).kind == "c" or getattr(im, "dtype", np.dtype(float)).kind == "c":
        raise Unsupported("elem_binary:complex of complex operands")
    shape = np.broadcast_shapes(np.shape(re), np.shape(im))
    out = cp.empty(shape, dtype=dt)
    out.real[...] = re
    out.imag[...] = im
    return out


def _divides_by_complex_zero(cp: Any, divisor: Any) -> bool:
    if isinstance(divisor, (complex, np.generic)):
        # a Python or NumPy scalar (``_to_work`` makes NumPy scalars of floats)
        return bool(divisor == 0) and np.iscomplexobj(divisor)
    if getattr(divisor, "dtype", None) is None or divisor.dtype.kind != "c":
        return False
    return bool(cp.any(divisor == 0))


def _mod(cp: Any, p: Any, a: Any, b: Any, op: str = "mod") -> Any:
    a, b = cp.asarray(a), cp.asarray(b)
    if a.dtype.kind == "c" or b.dtype.kind == "c":
        raise Unsupported(f"elem_binary:{op}:complex")
    dt = np.result_type(a.dtype, b.dtype)
    return p.kernels.mod(a.astype(dt, copy=False), b.astype(dt, copy=False), op)


def matlab_align(a: Any, b: Any) -> tuple[Any, Any]:
    """Append trailing singleton dims so broadcasting matches MATLAB's."""
    if hasattr(a, "ndim") and hasattr(b, "ndim") and a.ndim != b.ndim and a.ndim and b.ndim:
        n = max(a.ndim, b.ndim)
        a = a.reshape(a.shape + (1,) * (n - a.ndim), order="F")
        b = b.reshape(b.shape + (1,) * (n - b.ndim), order="F")
    return a, b


def _to_work(cp: Any, x: Any, work: np.dtype) -> Any:
    """``x`` (device array or Python scalar) in the working dtype; complex
    values stay complex when the work type is real (MATLAB keeps them)."""
    if isinstance(x, (int, float, complex, bool)):
        if isinstance(x, complex) and work.kind != "c":
            return np.complex128(x)
        return work.type(x)
    if x.dtype.kind == "c" and work.kind != "c":
        return x
    return x.astype(work, copy=False)


def binary(p: Any, op: str, a: Any, b: Any, out_dtype: str) -> Any:
    """``op`` of device arrays/scalars ``a``, ``b`` with implicit expansion."""
    cp = p.cp
    if op == "complex":
        return _complex(cp, a, b, np.dtype(out_dtype))
    table = _binary_table(cp, p)
    if op not in table:
        raise Unsupported(f"elem_binary:{op}")
    dt = np.dtype(out_dtype)
    a, b = matlab_align(a, b)
    if op not in COMPARE_OR_LOGIC:
        work = dt if dt.kind in "fc" else np.dtype(np.float64)
        a, b = _to_work(cp, a, work), _to_work(cp, b, work)
    elif isinstance(a, complex) or isinstance(b, complex):
        a, b = _to_work(cp, a, np.dtype(np.complex128)), _to_work(cp, b, np.dtype(np.complex128))
    elif op not in ("and", "or", "xor"):
        a, b = single_if_mixed(a, b)
    if op in ("rdivide", "ldivide") and _divides_by_complex_zero(cp, b if op == "rdivide" else a):
        # CuPy gives NaN+NaNi for x/(0+0i); MATLAB's (the host path's) result
        # differs: let the host compute these rare divisions (counted).
        raise Unsupported("elem_binary:complex division by zero")
    result = table[op](a, b)
    return p.cast_to(result, out_dtype)


def _parts(cp: Any, fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def apply(x: Any) -> Any:
        if x.dtype.kind == "c":
            return fn(x.real) + 1j * fn(x.imag)
        return fn(x)
    return apply


def _sign(cp: Any, x: Any) -> Any:
    if x.dtype.kind == "c":
        mag = _abs(cp, x)
        return cp.where(mag == 0, 0, x / cp.where(mag == 0, 1, mag))
    if x.dtype.kind == "f":
        # by the bits: sign of a subnormal is +-1 even where compares flush it;
        # sign(NaN) is NaN, sign(-0) is 0
        mask = np.uint32(0x7FFFFFFF) if x.dtype.itemsize == 4 else np.uint64(0x7FFFFFFFFFFFFFFF)
        zero = (x.view(np.uint32 if x.dtype.itemsize == 4 else np.uint64) & mask) == 0
        unit = cp.where(cp.signbit(x), -1, 1).astype(x.dtype)
        return cp.where(cp.isnan(x), x, cp.where(zero, cp.zeros((), x.dtype), unit))
    return cp.sign(x)


def _abs(cp: Any, x: Any) -> Any:
    """``abs``; of a complex value scaled by the larger part, as the WGSL
    kernels compute it (CuPy's complex abs and CUDA's hypot overflow to Inf
    for a part near realmax)."""
    if x.dtype.kind != "c":
        return cp.abs(x)
    return _hypot(cp, x.real, x.imag)


def _hypot(cp: Any, a: Any, b: Any) -> Any:
    """``hypot`` scaled by the larger magnitude (the op table's ``mf_hypot``):
    Inf when either argument is infinite, even with a NaN."""
    re, im = cp.abs(a), cp.abs(b)
    big, small = cp.maximum(re, im), cp.minimum(re, im)   # NaN propagates
    ratio = small / cp.where(big == 0, 1, big)
    out = big * cp.sqrt(1 + ratio * ratio)
    return cp.where(cp.isinf(re) | cp.isinf(im), cp.inf, out).astype(out.dtype, copy=False)


def _round(p: Any, x: Any) -> Any:
    if x.dtype.kind in "iub":
        return x
    return p.kernels.round_half_away(x)


def _special(name: str) -> Callable[[Any], Any]:
    def apply(x: Any) -> Any:
        import importlib

        special = importlib.import_module("cupyx.scipy.special")
        fn = getattr(special, name, None)
        if fn is None or x.dtype.kind == "c":
            raise Unsupported(f"elem_unary:{name}")
        return fn(x)
    return apply


def _gamma(cp: Any) -> Callable[[Any], Any]:
    """MATLAB's gamma: Inf at the negative integers (cupyx gives NaN)."""
    gamma = _special("gamma")

    def apply(x: Any) -> Any:
        out = gamma(x)
        poles = (x < 0) & (x == cp.floor(x)) & cp.isfinite(x)
        return cp.where(poles, cp.inf, out).astype(out.dtype)
    return apply


def _unary_table(p: Any) -> dict[str, Callable[[Any], Any]]:
    cp = p.cp
    return {
        "uminus": cp.negative, "uplus": lambda x: x, "not": lambda x: x == 0,
        "abs": lambda x: _abs(cp, x), "sign": lambda x: _sign(cp, x), "sqrt": cp.sqrt, "exp": cp.exp,
        "expm1": cp.expm1, "log": cp.log, "log2": cp.log2, "log10": cp.log10,
        "log1p": cp.log1p, "sin": cp.sin, "cos": cp.cos, "tan": cp.tan, "asin": cp.arcsin,
        "acos": cp.arccos, "atan": cp.arctan, "sinh": cp.sinh, "cosh": cp.cosh,
        "tanh": cp.tanh, "asinh": cp.arcsinh, "acosh": cp.arccosh, "atanh": cp.arctanh,
        "floor": _parts(cp, cp.floor), "ceil": _parts(cp, cp.ceil),
        "round": _parts(cp, lambda x: _round(p, x)), "fix": _parts(cp, cp.trunc),
        "real": cp.real, "imag": cp.imag, "conj": cp.conj, "angle": cp.angle,
        "gamma": _gamma(cp), "erf": _special("erf"), "erfc": _special("erfc"),
        "gammaln": _special("gammaln"), "erfinv": _special("erfinv"), "erfcinv": _special("erfcinv"),
        "isnan": cp.isnan, "isinf": cp.isinf, "isfinite": cp.isfinite,
    }


def unary(p: Any, op: str, a: Any, out_dtype: str) -> Any:
    table = _unary_table(p)
    if op not in table:
        raise Unsupported(f"elem_unary:{op}")
    dt = np.dtype(out_dtype)
    if dt.kind == "c" and a.dtype.kind != "c" and op not in ("real", "imag", "abs"):
        a = a.astype(dt)
    result = table[op](a)
    return p.cast_to(result, out_dtype)
