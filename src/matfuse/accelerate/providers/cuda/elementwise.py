"""Elementwise hooks of the CUDA provider on real floating-point data that
the generated kernels do not take: more elements than their 32-bit indices
reach, operations outside the fusion IR (special functions, the inverse
hyperbolic functions, ``imag`` of a real value) and operand forms it does
not express. CuPy's ufuncs, with MATLAB's rules where they differ.

Integer data runs generated kernels only (one-node kernels of the fusion
IR, ``accelerate_api.elementwise_kernel``) and complex data the complex
kernels (``complex_kernels``); complex functions outside the device code's
complex table (``COMPLEX_UFUNCS``: the inverse trigonometric and hyperbolic
functions) run CuPy's complex ufuncs; what the rest decline is the host's. Mirrors
``providers/numpy_kernels.py`` (the oracle) op for op: implicit expansion
pads shapes on the right (MATLAB) before CuPy broadcasts.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from matfuse.accelerate.providers._host import single_if_mixed
from matfuse.accelerate_api import GpuTensorHandle, Unsupported

COMPARE_OR_LOGIC = frozenset({"eq", "ne", "lt", "le", "gt", "ge", "and", "or", "xor"})
_REAL_FLOAT_DTYPES = frozenset({"float32", "float64", "bool"})


def check_real_floats(op: str, operands: Sequence[Any], out_dtype: str) -> None:
    """Raise Unsupported unless operands and result are real double/single/
    logical data (integer classes have no CuPy path: the host computes what
    the generated kernels decline)."""
    if out_dtype not in _REAL_FLOAT_DTYPES:
        raise Unsupported(f"cuda: {op} into {out_dtype}")
    for o in operands:
        if isinstance(o, GpuTensorHandle) and o.dtype not in _REAL_FLOAT_DTYPES:
            raise Unsupported(f"cuda: {op} of {o.dtype}")


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


def _mod(cp: Any, p: Any, a: Any, b: Any, op: str = "mod") -> Any:
    a, b = cp.asarray(a), cp.asarray(b)
    dt = np.result_type(a.dtype, b.dtype)
    return p.kernels.mod(a.astype(dt, copy=False), b.astype(dt, copy=False), op)


def matlab_align(a: Any, b: Any) -> tuple[Any, Any]:
    """Append trailing singleton dims so broadcasting matches MATLAB's."""
    if hasattr(a, "ndim") and hasattr(b, "ndim") and a.ndim != b.ndim and a.ndim and b.ndim:
        n = max(a.ndim, b.ndim)
        a = a.reshape(a.shape + (1,) * (n - a.ndim), order="F")
        b = b.reshape(b.shape + (1,) * (n - b.ndim), order="F")
    return a, b


def _to_work(x: Any, work: np.dtype) -> Any:
    """``x`` (device array or Python scalar) in the working dtype."""
    if isinstance(x, (int, float, bool)):
        return work.type(x)
    return x.astype(work, copy=False)


def binary(p: Any, op: str, a: Any, b: Any, out_dtype: str) -> Any:
    """``op`` of real device arrays/scalars ``a``, ``b`` with implicit expansion."""
    cp = p.cp
    table = _binary_table(cp, p)
    if op not in table:
        raise Unsupported(f"elem_binary:{op}")
    dt = np.dtype(out_dtype)
    a, b = matlab_align(a, b)
    if op not in COMPARE_OR_LOGIC:
        work = dt if dt.kind == "f" else np.dtype(np.float64)
        a, b = _to_work(a, work), _to_work(b, work)
    elif op not in ("and", "or", "xor"):
        a, b = single_if_mixed(a, b)
    result = table[op](a, b)
    return p.cast_to(result, out_dtype)


def _sign(cp: Any, x: Any) -> Any:
    if x.dtype.kind == "f":
        # by the bits: sign of a subnormal is +-1 even where compares flush it;
        # sign(NaN) is NaN, sign(-0) is 0
        mask = np.uint32(0x7FFFFFFF) if x.dtype.itemsize == 4 else np.uint64(0x7FFFFFFFFFFFFFFF)
        zero = (x.view(np.uint32 if x.dtype.itemsize == 4 else np.uint64) & mask) == 0
        unit = cp.where(cp.signbit(x), -1, 1).astype(x.dtype)
        return cp.where(cp.isnan(x), x, cp.where(zero, cp.zeros((), x.dtype), unit))
    return cp.sign(x)


def _hypot(cp: Any, a: Any, b: Any) -> Any:
    """``hypot`` scaled by the larger magnitude (the op table's ``mf_hypot``):
    Inf when either argument is infinite, even with a NaN."""
    re, im = cp.abs(a), cp.abs(b)
    big, small = cp.maximum(re, im), cp.minimum(re, im)   # NaN propagates
    ratio = small / cp.where(big == 0, 1, big)
    out = big * cp.sqrt(1 + ratio * ratio)
    return cp.where(cp.isinf(re) | cp.isinf(im), cp.inf, out).astype(out.dtype, copy=False)


def _special(name: str) -> Callable[[Any], Any]:
    def apply(x: Any) -> Any:
        import importlib

        special = importlib.import_module("cupyx.scipy.special")
        fn = getattr(special, name, None)
        if fn is None:
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
        "abs": cp.abs, "sign": lambda x: _sign(cp, x), "sqrt": cp.sqrt, "exp": cp.exp,
        "expm1": cp.expm1, "log": cp.log, "log2": cp.log2, "log10": cp.log10,
        "log1p": cp.log1p, "sin": cp.sin, "cos": cp.cos, "tan": cp.tan, "asin": cp.arcsin,
        "acos": cp.arccos, "atan": cp.arctan, "sinh": cp.sinh, "cosh": cp.cosh,
        "tanh": cp.tanh, "asinh": cp.arcsinh, "acosh": cp.arccosh, "atanh": cp.arctanh,
        "floor": cp.floor, "ceil": cp.ceil, "round": p.kernels.round_half_away, "fix": cp.trunc,
        "real": lambda x: x, "imag": cp.zeros_like, "conj": lambda x: x,
        "gamma": _gamma(cp), "erf": _special("erf"), "erfc": _special("erfc"),
        "gammaln": _special("gammaln"), "erfinv": _special("erfinv"), "erfcinv": _special("erfcinv"),
        "isnan": cp.isnan, "isinf": cp.isinf, "isfinite": cp.isfinite,
    }


#: complex functions that CuPy's complex ufuncs compute where the complex
#: table has no expression (hook op name -> CuPy ufunc name)
COMPLEX_UFUNCS = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh",
                  "acosh": "arccosh", "atanh": "arctanh"}


def complex_unary(p: Any, op: str, a: Any, out_dtype: str) -> Any:
    """``op`` (a ``COMPLEX_UFUNCS`` name) of device array ``a`` into complex
    ``out_dtype``: a real operand is promoted to the result's class first."""
    if op not in COMPLEX_UFUNCS or out_dtype not in ("complex64", "complex128"):
        raise Unsupported(f"cuda: complex {op} into {out_dtype}")
    return getattr(p.cp, COMPLEX_UFUNCS[op])(a.astype(out_dtype, copy=False))


def unary(p: Any, op: str, a: Any, out_dtype: str) -> Any:
    """``op`` of a real device array ``a``."""
    table = _unary_table(p)
    if op not in table:
        raise Unsupported(f"elem_unary:{op}")
    return p.cast_to(table[op](a), out_dtype)
