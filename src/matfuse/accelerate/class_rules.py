"""Result classes of device operations, decided on the host.

The device fast path covers real/complex ``double``/``single``, ``logical``
and the integer classes up to 32 bits (computed in double, rounded half
away and saturated by the provider, as the host does). Everything else
(64-bit integers, char, mixed-class corner cases MATLAB errors on) returns
``None`` and takes the host path, whose rules are the runtime's; so the
device never has to reproduce an error.
"""

from __future__ import annotations

from typing import Any

import numpy as np

ARITHMETIC = frozenset({"plus", "minus", "times", "rdivide", "ldivide", "power"})
COMPARISON = frozenset({"eq", "ne", "lt", "le", "gt", "ge"})
ORDERING = frozenset({"lt", "le", "gt", "ge"})
LOGICAL = frozenset({"and", "or", "xor"})
REAL_ONLY_BINARY = frozenset({"atan2", "hypot", "max", "min", "mod", "rem"})
BINARY_OPS = ARITHMETIC | COMPARISON | LOGICAL | REAL_ONLY_BINARY

# Operator symbols of runtime.ops.binary/unary -> provider op names.
BINARY_SYMBOLS = {
    "+": "plus", "-": "minus", ".*": "times", "./": "rdivide", ".\\": "ldivide",
    ".^": "power", "==": "eq", "~=": "ne", "<": "lt", "<=": "le", ">": "gt",
    ">=": "ge", "&": "and", "|": "or",
}
SYMBOL_OF_BINARY = {name: sym for sym, name in BINARY_SYMBOLS.items()}
UNARY_SYMBOLS = {"-": "uminus", "+": "uplus", "~": "not", "!": "not"}

PREDICATES = frozenset({"isnan", "isinf", "isfinite"})
REAL_RESULT_OF_COMPLEX = frozenset({"abs", "real", "imag", "angle"})
# complex unary ops sent to the providers' complex hooks (the device code's
# complex table; not the inverse trigonometric and hyperbolic functions,
# whose branch cuts the host takes as MATLAB does: asin(2) = pi/2 - 1.3170i)
COMPLEX_OK_UNARY = frozenset({"uminus", "uplus", "conj", "real", "imag", "abs", "angle",
                              "exp", "log", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh",
                              "log2", "log10", "expm1", "log1p", "isnan", "isinf", "isfinite"})
FLOAT_UNARY = frozenset({
    "uminus", "uplus", "abs", "sign", "sqrt", "exp", "expm1", "log", "log2", "log10",
    "log1p", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
    "asinh", "acosh", "atanh", "floor", "ceil", "round", "fix", "real", "imag",
    "conj", "angle", "gamma", "gammaln", "erf", "erfc", "erfinv", "erfcinv", "isnan", "isinf",
    "isfinite", "not",
})
# Unary ops of an integer array that keep its class (computed in double,
# then rounded and saturated: -int8(-128) is 127).
INTEGER_UNARY = frozenset({"uminus", "uplus", "abs", "sign", "floor", "ceil", "round", "fix"})
# op -> the real-input condition under which MATLAB returns a complex result.
COMPLEX_DOMAIN = {
    "sqrt": ("lt", 0.0), "log": ("lt", 0.0), "log2": ("lt", 0.0),
    "log10": ("lt", 0.0), "log1p": ("lt", -1.0), "acosh": ("lt", 1.0),
    "asin": ("absgt", 1.0), "acos": ("absgt", 1.0), "atanh": ("absgt", 1.0),
}

_DEVICE_CLASSES = ("double", "single", "logical")


def float_dtype(single: bool, complex_: bool) -> str:
    if complex_:
        return "complex64" if single else "complex128"
    return "float32" if single else "float64"


def operand_kind(v: Any) -> tuple[str, bool] | None:
    """(MATLAB class, is complex) of a device or host operand, None if it
    is not an array value."""
    from matfuse.runtime.values import DeviceValue, class_of

    t = type(v)
    if t is float:
        return "double", False
    if t is bool:
        return "logical", False
    if t is complex:
        return "double", True
    if isinstance(v, DeviceValue):
        return v.underlying_class(), v.is_complex()
    if t is np.ndarray:
        return class_of(v), v.dtype.kind == "c"
    return None


def binary_out_dtype(op: str, a: tuple[str, bool], b: tuple[str, bool]) -> str | None:
    """Result dtype of elementwise ``op`` on operands of kinds ``a``, ``b``;
    None when the host path must decide (or raise)."""
    (ca, xa), (cb, xb) = a, b
    if ca in _SMALL_INTS or cb in _SMALL_INTS:
        return _integer_out_dtype(op, a, b)
    if ca not in _DEVICE_CLASSES or cb not in _DEVICE_CLASSES:
        return None
    any_complex = xa or xb
    if op in COMPARISON:
        if any_complex and op in ORDERING:
            return None  # MATLAB orders complex by real part; keep it on the host
        return "bool"
    if op in LOGICAL:
        # Non-logical inputs may hold NaN, which MATLAB rejects: host decides.
        return "bool" if ca == cb == "logical" else None
    if op in REAL_ONLY_BINARY and any_complex:
        return None
    if op in ARITHMETIC or op in REAL_ONLY_BINARY:
        if op in ("max", "min") and ca == cb == "logical":
            return None
        return float_dtype("single" in (ca, cb), any_complex)
    return None


# Integer classes whose values are exact in float64 (the provider computes
# integer ops in double, then rounds half away and saturates).
_SMALL_INTS = ("int8", "uint8", "int16", "uint16", "int32", "uint32")
INTEGER_CLASSES = frozenset(_SMALL_INTS)


def _integer_out_dtype(op: str, a: tuple[str, bool], b: tuple[str, bool]) -> str | None:
    """MATLAB: an integer combines with the same class, double, single or
    logical; the result has the integer class (the host computes it in
    double). Comparisons take any two real classes. Anything else (mixed
    integer classes, complex) is the host's call."""
    (ca, xa), (cb, xb) = a, b
    if xa or xb:
        return None
    if op in COMPARISON:
        return "bool" if {ca, cb} <= _COMPARABLE else None
    if op in LOGICAL:
        # Integers hold no NaN, so & | xor cannot raise: any mix with logical.
        return "bool" if {ca, cb} <= _NAN_FREE else None
    cls = ca if ca in _SMALL_INTS else cb
    other = cb if ca in _SMALL_INTS else ca
    if op in ARITHMETIC:
        return cls if other in (cls, "double", "single", "logical") else None
    if op in ("max", "min", "mod", "rem"):
        return cls if other in (cls, "double") else None
    return None


_COMPARABLE = frozenset(_SMALL_INTS) | frozenset(_DEVICE_CLASSES)
_NAN_FREE = frozenset(_SMALL_INTS) | {"logical"}


def unary_out_dtype(op: str, a: tuple[str, bool]) -> str | None:
    """Result dtype of elementwise unary ``op``; None for the host path."""
    cls, cx = a
    if op not in FLOAT_UNARY:
        return None
    if op in PREDICATES:
        return "bool" if cls in _DEVICE_CLASSES or cls in _SMALL_INTS else None
    if op == "not":
        return "bool" if cls == "logical" or cls in _SMALL_INTS else None
    if cls in _SMALL_INTS:
        return cls if op in INTEGER_UNARY and not cx else None
    if cls == "logical":
        return "float64" if op in ("uminus", "uplus") else None
    if cls not in ("double", "single"):
        return None
    if cx and op not in COMPLEX_OK_UNARY:
        return None
    single = cls == "single"
    if cx and op in REAL_RESULT_OF_COMPLEX:
        return float_dtype(single, False)
    if not cx and op == "imag":
        return float_dtype(single, False)
    return float_dtype(single, cx)


def matlab_class_of_dtype(dtype: str, fallback: str = "double") -> str:
    """MATLAB class for a handle dtype (``float32`` -> ``single`` ...)."""
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return "logical"
    if dt in (np.float32, np.complex64):
        return "single"
    if dt in (np.float64, np.complex128):
        return "double"
    if dt.kind in "iu":
        return dt.name
    return fallback
