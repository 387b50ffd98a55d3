"""Elementwise operators on host arrays: arithmetic, comparison, logical.

Implements MATLAB's class combination (integers computed in double, rounded
half away from zero and saturated; exact 64-bit integer ``+ - .*``), implicit
expansion and complex promotion of ``.^``. Inputs are MATLAB values already
known not to live on a device; results are canonical values.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._classrules import (
    INT_LIMITS,
    INTEGER_SET,
    arithmetic_class,
    convert,
    drop_zero_imag,
    float_to_int,
    type_error,
)
from matfuse.runtime._host_threads import MIN_ELEMENTWISE, map_elementwise
from matfuse.runtime.values import (
    CHAR_DTYPE,
    StringArray,
    canonical,
    char_codes,
    class_of,
    to_array,
)

ARITH_OPS = frozenset(("+", "-", ".*", "./", ".\\", ".^"))
COMPARE_OPS = frozenset(("==", "~=", "<", "<=", ">", ">="))
LOGICAL_OPS = frozenset(("&", "|"))

_OP_NAMES = {"+": "+", "-": "-", ".*": ".*", "./": "./", ".\\": ".\\", ".^": ".^",
             "==": "==", "~=": "~=", "<": "<", "<=": "<=", ">": ">", ">=": ">=",
             "&": "&", "|": "|"}


def expanded_shape(sa: tuple[int, ...], sb: tuple[int, ...]) -> tuple[int, ...]:
    """MATLAB implicit expansion of two shapes, or MATLAB's size error."""
    if sa == sb:
        return sa
    n = max(len(sa), len(sb))
    sa = sa + (1,) * (n - len(sa))
    sb = sb + (1,) * (n - len(sb))
    out = []
    for x, y in zip(sa, sb):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            raise MatlabError("MATLAB:sizeDimensionsMustMatch",
                              "Arrays have incompatible sizes for this operation.")
    return tuple(out)


def aligned(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Check expansion and pad both arrays to the same ndim so NumPy's
    right-aligned broadcasting matches MATLAB's left-aligned dims."""
    expanded_shape(a.shape, b.shape)
    if a.ndim < b.ndim:
        a = a.reshape(a.shape + (1,) * (b.ndim - a.ndim))
    elif b.ndim < a.ndim:
        b = b.reshape(b.shape + (1,) * (a.ndim - b.ndim))
    return a, b


def _operand(v: Any, op: str) -> np.ndarray:
    t = type(v)
    if t is np.ndarray or t is float or t is bool or t is complex:
        return to_array(v)
    raise type_error(_OP_NAMES.get(op, op), v)


def result_order(x: np.ndarray, y: np.ndarray) -> str:
    """Memory order of an elementwise result: column-major when both operands
    are (a column times a row expands to a column-major matrix, so ``A(:)``,
    column reductions and column FFTs of it need no transposing copy),
    otherwise NumPy's 'K' (follow the operands)."""
    return "F" if x.flags.f_contiguous and y.flags.f_contiguous else "K"


def _float_kernel(op: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    order = result_order(x, y)
    with np.errstate(all="ignore"):
        if op == "+":
            return np.add(x, y, order=order)
        if op == "-":
            return np.subtract(x, y, order=order)
        if op == ".*":
            return np.multiply(x, y, order=order)
        if op == "./":
            return np.divide(x, y, order=order)
        if op == ".\\":
            return np.divide(y, x, order=order)
        return _power(x, y, order)


def _power(x: np.ndarray, y: np.ndarray, order: str = "K") -> np.ndarray:
    """``x.^y``; a negative real base with a non-integer exponent is complex."""
    if x.dtype.kind != "c" and y.dtype.kind != "c":
        if _complex_power(x, y):
            ctype = np.complex64 if x.dtype == np.float32 and y.dtype == np.float32 else np.complex128
            return drop_zero_imag(np.power(x.astype(ctype), y.astype(ctype), order=order))
        if y.size == 1 and x.size >= MIN_ELEMENTWISE and x.dtype == y.dtype:
            blocks = map_elementwise(np.power, x, y.reshape(-1)[0])   # pow is slow: in parallel
            if blocks is not None:
                return blocks
    return np.power(x, y, order=order)


def _complex_power(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether some negative real base meets a non-integer exponent.  With a
    scalar exponent this is one reduction over the base (fmin skips NaN,
    which is not negative) instead of two boolean temporaries."""
    if y.size == 1 and x.size > 0:
        e = y.reshape(-1)[0]
        return not e == np.round(e) and bool(np.fmin.reduce(x, axis=None) < 0)
    return bool(np.any((x < 0) & (y != np.round(y))))


def _float_operand(arr: np.ndarray, cls: str) -> np.ndarray:
    """Operand as the float type arithmetic of class ``cls`` runs in."""
    single = cls == "single"
    if arr.dtype == CHAR_DTYPE:
        return char_codes(arr).astype(np.float32 if single else np.float64)
    # copy=False: operands are never written to, so same-class arrays pass as is.
    if arr.dtype.kind == "c":
        return arr.astype(np.complex64 if single else np.complex128, copy=False)
    return arr.astype(np.float32 if single else np.float64, copy=False)


def arithmetic(op: str, a: Any, b: Any) -> Any:
    """``a op b`` for ``+ - .* ./ .\\ .^`` on host values."""
    if isinstance(a, StringArray) or isinstance(b, StringArray):
        if op == "+":
            return string_plus(a, b)
        raise type_error(op, a if isinstance(a, StringArray) else b)
    x = _operand(a, op)
    y = _operand(b, op)
    cls = arithmetic_class(class_of(x), class_of(y))
    x, y = aligned(x, y)
    if cls in INTEGER_SET:
        return canonical(_integer_arithmetic(op, x, y, cls))
    result = _float_kernel(op, _float_operand(x, cls), _float_operand(y, cls))
    return canonical(drop_zero_imag(result))


def _integer_arithmetic(op: str, x: np.ndarray, y: np.ndarray, cls: str) -> np.ndarray:
    if x.dtype.kind == "c" or y.dtype.kind == "c":
        raise MatlabError("MATLAB:complexInteger", "Complex integer arithmetic is not supported.")
    if cls in ("int64", "uint64") and op in ("+", "-", ".*", "./", ".\\"):
        exact = _exact_int64(op, x, y, cls)
        if exact is not None:
            return exact
    result = _float_kernel(op, _float_operand(x, "double"), _float_operand(y, "double"))
    if result.dtype.kind == "c":
        raise MatlabError("MATLAB:complexInteger", "Complex integer arithmetic is not supported.")
    return float_to_int(result, cls)


def _as_exact_ints(arr: np.ndarray) -> np.ndarray | None:
    """Object array of Python ints when every element is an exact integer."""
    if arr.dtype.kind in "iu":
        return arr.astype(object)
    if arr.dtype == np.bool_:
        return arr.astype(np.int64).astype(object)
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or np.any(arr != np.trunc(arr)):
            return None
        return np.vectorize(int, otypes=[object])(arr) if arr.size else arr.astype(object)
    return None


def _exact_int64(op: str, x: np.ndarray, y: np.ndarray, cls: str) -> np.ndarray | None:
    """64-bit integer arithmetic without a float64 round trip."""
    xi = _as_exact_ints(x)
    yi = _as_exact_ints(y)
    if xi is None or yi is None:
        return None
    lo, hi = INT_LIMITS[cls]
    if op == "+":
        r = xi + yi
    elif op == "-":
        r = xi - yi
    elif op == ".*":
        r = xi * yi
    else:
        num, den = (xi, yi) if op == "./" else (yi, xi)
        r = np.frompyfunc(lambda p, q: _int_divide(p, q, lo, hi), 2, 1)(num, den)
    r = np.asarray(r, dtype=object)
    clipped = np.frompyfunc(lambda v: min(max(v, lo), hi), 1, 1)(r)
    return np.asarray(clipped, dtype=object).astype(np.dtype(cls))


def _int_divide(p: int, q: int, lo: int, hi: int) -> int:
    """Integer division rounded half away from zero; x/0 saturates."""
    if q == 0:
        return 0 if p == 0 else (hi if p > 0 else lo)
    sign = -1 if (p < 0) != (q < 0) else 1
    quo, rem = divmod(abs(p), abs(q))
    if 2 * rem >= abs(q):
        quo += 1
    return sign * quo


# -------------------------------------------------------------- comparisons
def _compare_operand(arr: np.ndarray) -> np.ndarray:
    if arr.dtype == CHAR_DTYPE:
        return char_codes(arr)
    return arr


_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": np.equal, "~=": np.not_equal, "<": np.less, "<=": np.less_equal,
    ">": np.greater, ">=": np.greater_equal,
}


_SINGLE_OF = {np.dtype(np.float64): np.dtype(np.float32),
              np.dtype(np.complex128): np.dtype(np.complex64)}
_SINGLES = frozenset({np.dtype(np.float32), np.dtype(np.complex64)})


def single_if_mixed(x: Any, y: Any) -> tuple[Any, Any]:
    """MATLAB compares a single with a double in single (``single(0.1) ==
    0.1`` is true), for arrays as for scalars: the double side is rounded."""
    dx, dy = getattr(x, "dtype", None), getattr(y, "dtype", None)
    if dx in _SINGLES and dy in _SINGLE_OF:
        return x, y.astype(_SINGLE_OF[dy])
    if dy in _SINGLES and dx in _SINGLE_OF:
        return x.astype(_SINGLE_OF[dx]), y
    return x, y


def compare(op: str, a: Any, b: Any) -> Any:
    """Relational operators; results are logical. ``< <= > >=`` on complex
    operands compare real parts."""
    if isinstance(a, StringArray) or isinstance(b, StringArray):
        return string_compare(op, a, b)
    x = _compare_operand(_operand(a, op))
    y = _compare_operand(_operand(b, op))
    x, y = single_if_mixed(x, y)
    x, y = aligned(x, y)
    if op not in ("==", "~="):
        if x.dtype.kind == "c":
            x = x.real
        if y.dtype.kind == "c":
            y = y.real
    return canonical(_COMPARE[op](x, y))


def logical_operand(v: Any, op: str) -> np.ndarray:
    """A value as a bool array for ``& | ~ xor`` (NaN is an error)."""
    if type(v) is bool:
        return np.array([[v]])
    arr = _operand(v, op)
    if arr.dtype == np.bool_:
        return arr
    return convert(arr, "logical")


def logical_op(op: str, a: Any, b: Any) -> Any:
    """Elementwise ``&`` / ``|`` (also ``xor``) with implicit expansion."""
    x, y = aligned(logical_operand(a, op), logical_operand(b, op))
    if op == "&":
        return canonical(x & y)
    if op == "|":
        return canonical(x | y)
    return canonical(x ^ y)


# ------------------------------------------------------------------ strings
def string_of(v: Any) -> np.ndarray:
    """An operand of a string operation as an object array of str/None."""
    if isinstance(v, StringArray):
        return v.data
    if type(v) is np.ndarray and v.dtype == CHAR_DTYPE:
        out = np.empty((1, 1), dtype=object)
        out[0, 0] = "".join(v.reshape(-1, order="F").tolist())
        return out
    t = type(v)
    if t is float or t is bool or t is np.ndarray:
        arr = to_array(v)
        out = np.empty(arr.shape, dtype=object, order="F")
        flat = arr.reshape(-1, order="F")
        res = out.reshape(-1, order="F")
        for i, e in enumerate(flat):
            res[i] = number_text(e)
        return out.reshape(arr.shape, order="F")
    raise type_error("+", v)


def number_text(x: Any) -> str:
    """How ``string(x)`` writes a number (short, up to 5 significant digits)."""
    if isinstance(x, (bool, np.bool_)):
        return "true" if x else "false"
    if isinstance(x, (np.integer,)):
        return str(int(x))
    value = complex(x) if np.iscomplexobj(x) else float(x)
    if isinstance(value, complex):
        return f"{number_text(value.real)}{'+' if value.imag >= 0 else '-'}{number_text(abs(value.imag))}i"
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Inf" if value > 0 else "-Inf"
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.5g}".replace("e+0", "e+").replace("e-0", "e-")


def string_plus(a: Any, b: Any) -> StringArray:
    x, y = aligned(string_of(a), string_of(b))
    out = np.frompyfunc(lambda p, q: None if p is None or q is None else p + q, 2, 1)(x, y)
    return StringArray(np.asarray(out, dtype=object).reshape(np.broadcast_shapes(x.shape, y.shape)))


def string_compare(op: str, a: Any, b: Any) -> Any:
    x, y = aligned(string_of(a), string_of(b))

    def cmp(p: Any, q: Any) -> bool:
        if p is None or q is None:
            return op == "~="
        return {"==": p == q, "~=": p != q, "<": p < q, "<=": p <= q,
                ">": p > q, ">=": p >= q}[op]

    out = np.frompyfunc(cmp, 2, 1)(x, y)
    return canonical(np.asarray(out, dtype=object).astype(np.bool_).reshape(
        np.broadcast_shapes(x.shape, y.shape)))
