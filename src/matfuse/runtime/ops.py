"""Operators on MATLAB values (owned by the runtime-core work).

Contract used by the VM (implement exactly these names):

* ``binary(op: str, a, b)``: ``op`` one of ``+ - .* ./ .\\ .^ * / \\ ^ == ~= < <= > >=
  & |``. MATLAB class-combination rules, implicit expansion, integer
  saturation, complex promotion where MATLAB gives it. Fast path when both
  operands are ``float``. Delegates to the accelerate facade when an operand is
  a ``DeviceValue``.
* ``unary(op: str, a)``: ``-`` ``+`` ``~``.
* ``transpose(a)``, ``ctranspose(a)``.
* ``colon_range(start, step, stop)``: ``start:step:stop`` (``step`` may be None).
* ``concat(rows: list[list[value]])``: ``[a b; c d]`` with MATLAB's class rules
  (char wins over numbers, cells concatenate, structs concatenate, empty
  ``[]`` skipped).
* ``cell_concat(rows: list[list[value]])``: ``{a b; c d}``.
* ``is_true(v) -> bool``: ``if``/``while`` truth (all nonzero, non-empty).

``matfuse.runtime._matrixops.WARNING_HOOK`` may be set by the VM to route
MATLAB warnings (singular matrix) through ``warning``'s state.
"""

from __future__ import annotations

import math
import operator
from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.classdef_objects import ClassObject, object_operator
from matfuse.runtime.time_arrays import TimeArray
from matfuse.runtime.sparse_matrix import SparseMatrix, sparse_truth, to_full
from matfuse.runtime.sparse_ops import sparse_binary, sparse_transpose, sparse_unary
from matfuse.runtime._classrules import INTEGER_SET, convert, float_to_int, type_error
from matfuse.runtime._colon import colon_values
from matfuse.runtime._counting import COUNTING_ROW, COUNTING_SIZE
from matfuse.runtime._limits import check_allocation
from matfuse.runtime._concat import cell_rows, concat_rows
from matfuse.runtime._host_threads import (
    MIN_ELEMENTWISE,
    MIN_PARALLEL_ELEMENTS,
    map_arithmetic,
    map_elementwise,
)
from matfuse.runtime._elementwise import (
    ARITH_OPS,
    COMPARE_OPS,
    arithmetic,
    compare,
    logical_op,
    logical_operand,
)
from matfuse.runtime._matrixops import mldivide, mpower, mrdivide, mtimes
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    DeviceValue,
    StringArray,
    StructArray,
    canonical,
    char_codes,
    class_of,
    keep_visibility,
    to_array,
)
from matfuse.runtime.dispatcher import AUTO_OFFLOAD
from matfuse.runtime.device_router import device_router


def _divide(x: float, y: float) -> Any:
    try:
        return x / y
    except ZeroDivisionError:
        return arithmetic("./", x, y)


def _left_divide(x: float, y: float) -> Any:
    try:
        return y / x
    except ZeroDivisionError:
        return arithmetic(".\\", x, y)


def _power(x: float, y: float) -> Any:
    try:
        r = x ** y
    except (ZeroDivisionError, OverflowError):
        return arithmetic(".^", x, y)
    if type(r) is complex:
        return arithmetic(".^", x, y)
    return r


def _logical_and(x: float, y: float) -> Any:
    if x != x or y != y:
        raise MatlabError("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
    return x != 0 and y != 0


def _logical_or(x: float, y: float) -> Any:
    if x != x or y != y:
        raise MatlabError("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
    return x != 0 or y != 0


# Scalar double fast paths: the interpreter's hot loops land here.
_FLOAT_OPS: dict[str, Callable[[float, float], Any]] = {
    "+": operator.add, "-": operator.sub, ".*": operator.mul, "*": operator.mul,
    "./": _divide, "/": _divide, ".\\": _left_divide, "\\": _left_divide,
    ".^": _power, "^": _power,
    "==": operator.eq, "~=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge, "&": _logical_and, "|": _logical_or,
}

_F64 = np.dtype(np.float64)
_REAL_FLOATS = (_F64, np.dtype(np.float32))

# MATLAB arithmetic is silent about overflow, 0/0 and Inf-Inf; a per-call
# np.errstate costs more than the operation itself on small arrays.
np.seterr(all="ignore")

# Elementwise ops whose double result is always real double (or logical).
_DOUBLE_UFUNCS: dict[str, Callable[[Any, Any], Any]] = {
    "+": np.add, "-": np.subtract, ".*": np.multiply, "./": np.divide,
    "==": np.equal, "~=": np.not_equal, "<": np.less, "<=": np.less_equal,
    ">": np.greater, ">=": np.greater_equal,
}

# With a Python float on one side, ``*`` and array ``/`` scalar are
# elementwise too.
_ARRAY_SCALAR_UFUNCS = {**_DOUBLE_UFUNCS, "*": np.multiply, "/": np.divide}
_SCALAR_ARRAY_UFUNCS = {**_DOUBLE_UFUNCS, "*": np.multiply}

_ARITH_UFUNCS = frozenset((np.add, np.subtract, np.multiply, np.divide))

_MATRIX_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "*": mtimes, "/": mrdivide, "\\": mldivide, "^": mpower,
}


def binary(op: str, a: Any, b: Any) -> Any:
    """``a op b`` with MATLAB semantics; see the module docstring."""
    ta, tb = type(a), type(b)
    if ta is float and tb is float:
        return _FLOAT_OPS[op](a, b)
    # Host scalars and arrays too small for the offload hooks: no sparse,
    # device or hook checks (one size test each).
    limit = AUTO_OFFLOAD.min_array
    if (ta is float or (ta is np.ndarray and a.size < limit) or ta is bool) and (
            tb is float or (tb is np.ndarray and b.size < limit) or tb is bool):
        return _host_binary(op, a, b, ta, tb)
    if ta is SparseMatrix or tb is SparseMatrix:
        result = sparse_binary(op, a, b)
        if result is not NotImplemented:
            return result
        a, b = to_full(a), to_full(b)    # with a cell, string, object...
        ta, tb = type(a), type(b)
    auto = AUTO_OFFLOAD.binary
    if auto is not None:
        result = auto(op, a, b)
        if result is not NotImplemented:
            return result
    if isinstance(a, DeviceValue) or isinstance(b, DeviceValue):
        return device_router().binary(op, a, b)
    if ta is ClassObject or tb is ClassObject:
        return object_operator(op, [a, b])
    if isinstance(a, TimeArray) or isinstance(b, TimeArray):
        from matfuse.runtime.time_operators import time_binary  # time types load on first use

        return time_binary(op, a, b)
    return _host_binary(op, a, b, ta, tb)


def _host_binary(op: str, a: Any, b: Any, ta: type, tb: type) -> Any:
    """``binary`` once no operand is sparse, on a device, an object or a
    time array, and the offload hooks have declined."""
    if ta is bool and (tb is float or tb is bool) or (tb is bool and ta is float):
        # Logical scalars compute as doubles (comparisons and & | stay logical).
        return _FLOAT_OPS[op](float(a), float(b))
    # Real double arrays with a scalar or a same-shape array: plain NumPy.
    # Real single arrays with a double scalar or a same-shape single array
    # compute in single, which is what NumPy does with a Python float (NEP 50).
    if ta is np.ndarray:
        if tb is float:
            ufunc = _ARRAY_SCALAR_UFUNCS.get(op)
            same = True
        else:
            ufunc = _DOUBLE_UFUNCS.get(op)
            same = tb is np.ndarray and b.dtype == a.dtype and a.shape == b.shape
        if ufunc is not None and same and a.dtype in _REAL_FLOATS:
            if a.size >= MIN_PARALLEL_ELEMENTS and ufunc in _ARITH_UFUNCS:
                blocks = map_arithmetic(ufunc, a, b)    # large arrays: in parallel
                if blocks is not None:
                    return blocks
            return canonical(ufunc(a, b))
    elif tb is np.ndarray and ta is float:
        ufunc = _SCALAR_ARRAY_UFUNCS.get(op)
        if ufunc is not None and b.dtype in _REAL_FLOATS:
            if b.size >= MIN_PARALLEL_ELEMENTS and ufunc in _ARITH_UFUNCS:
                blocks = map_arithmetic(ufunc, a, b)
                if blocks is not None:
                    return blocks
            return canonical(ufunc(a, b))
    if ta is float or tb is float:
        fast = _scalar_real_float(op, a, b, ta, tb)
        if fast is not None:
            return fast
    if op in ARITH_OPS:
        return arithmetic(op, a, b)
    if op in COMPARE_OPS:
        return compare(op, a, b)
    matrix_op = _MATRIX_OPS.get(op)
    if matrix_op is not None:
        return matrix_op(a, b)
    if op == "&" or op == "|":
        return logical_op(op, a, b)
    raise MatlabError("MATLAB:UndefinedFunction", f"Unknown operator '{op}'.")


def _scalar_real_float(op: str, a: Any, b: Any, ta: type, tb: type) -> Any:
    """Scalar-times-array ``*``, array-over-scalar ``/`` and ``.^`` with an
    integer-valued scalar exponent on real double/single arrays: plain NumPy
    (these are elementwise in MATLAB and never turn complex); None otherwise."""
    if op == "*":
        if (ta is float and tb is np.ndarray and b.dtype in _REAL_FLOATS) or (
                tb is float and ta is np.ndarray and a.dtype in _REAL_FLOATS):
            blocks = map_arithmetic(np.multiply, a, b)
            return blocks if blocks is not None else canonical(np.multiply(a, b))
        return None
    if ta is not np.ndarray or a.dtype not in _REAL_FLOATS:
        return None
    if op == "/":
        blocks = map_arithmetic(np.divide, a, b)
        return blocks if blocks is not None else canonical(np.divide(a, b))
    if op == ".^" and b == b and b.is_integer():
        if b == 2.0:
            return canonical(np.multiply(a, a))
        if a.size >= MIN_ELEMENTWISE:
            blocks = map_elementwise(np.power, a, b)    # pow is slow: in parallel
            if blocks is not None:
                return canonical(blocks)
        return canonical(np.power(a, b))
    return None


def unary(op: str, a: Any) -> Any:
    """``-a``, ``+a`` or ``~a``."""
    ta = type(a)
    if ta is float:
        if op == "-":
            return -a
        if op == "+":
            return a
        if a != a:
            raise MatlabError("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
        return a == 0.0
    if ta is bool:
        if op == "~":
            return not a
        return -float(a) if op == "-" else float(a)
    if isinstance(a, DeviceValue):
        return keep_visibility(device_router().unary(op, a), a)
    if ta is ClassObject:
        return object_operator(op, [a])
    if isinstance(a, TimeArray):
        from matfuse.runtime.time_operators import time_unary  # time types load on first use

        return time_unary(op, a)
    if ta is SparseMatrix:
        return sparse_unary(op, a)
    if ta is not np.ndarray and ta is not complex:
        raise type_error(op if op != "~" else "~", a)
    arr = to_array(a)
    if op == "~":
        return canonical(~logical_operand(arr, "~"))
    cls = class_of(arr)
    if cls in INTEGER_SET:
        if op == "+":
            return arr
        if arr.dtype.kind == "u":
            return np.zeros(arr.shape, dtype=arr.dtype)
        return float_to_int(-arr.astype(np.float64), cls)
    if arr.dtype == CHAR_DTYPE:
        arr = char_codes(arr).astype(np.float64)
    elif arr.dtype == np.bool_:
        arr = arr.astype(np.float64)
    return canonical(-arr if op == "-" else arr)


def transpose(a: Any) -> Any:
    """``a.'`` (non-conjugate transpose); N-D arrays are an error."""
    t = type(a)
    if t is float or t is bool:
        return a
    if isinstance(a, DeviceValue):
        return keep_visibility(device_router().unary(".'", a), a)
    if t is np.ndarray:
        _check_2d(a)
        return canonical(a.T)
    if t is CellArray or t is StringArray:
        _check_2d(a.data)
        return t(a.data.T)
    if t is StructArray:
        _check_2d(a.data)
        return StructArray(list(a.fields), a.data.T)
    if isinstance(a, TimeArray):
        _check_2d(a.data)
        return a.like(a.data.T)
    if t is SparseMatrix:
        return sparse_transpose(a)
    if t is complex:
        return canonical(to_array(a))
    return a


def ctranspose(a: Any) -> Any:
    """``a'`` (complex-conjugate transpose)."""
    t = type(a)
    if t is float or t is bool:
        return a
    if isinstance(a, DeviceValue):
        return keep_visibility(device_router().unary("'", a), a)
    if t is np.ndarray and a.dtype.kind == "c":
        _check_2d(a)
        return canonical(np.conj(a.T))
    if t is complex:
        return canonical(np.conj(to_array(a)))
    if t is SparseMatrix:
        return sparse_transpose(a, conjugate=True)
    return transpose(a)


def _check_2d(arr: np.ndarray) -> None:
    if arr.ndim > 2:
        raise MatlabError("MATLAB:transpose:NDArray",
                          "Transpose on ND array is not defined. Use PERMUTE instead.")


def colon_range(start: Any, step: Any, stop: Any) -> Any:
    """``start:stop`` (``step`` None) or ``start:step:stop`` as a row vector."""
    if type(start) is float and type(stop) is float and (step is None or type(step) is float):
        if step is None and start.is_integer() and stop - start < 1e15:
            n = int(math.floor(stop - start)) + 1 if stop >= start else 0
            if n == 1:
                return start
            if n > 1 << 20:
                check_allocation((1, n), 8)
            first = int(start)
            if 0 <= first and first + n <= COUNTING_SIZE:
                return COUNTING_ROW[:, first:first + n].copy()   # cheaper than arange
            return np.arange(start, start + n, dtype=np.float64).reshape(1, max(n, 0))
    for v in (start, step, stop):
        if isinstance(v, DeviceValue):
            return device_router().colon(start, step, stop)
        if isinstance(v, TimeArray):
            from matfuse.runtime.time_operators import time_colon  # time types load on first use

            return time_colon(start, step, stop)
    return colon_values(start, step, stop)


def concat(rows: list[list[Any]]) -> Any:
    """``[a b; c d]``."""
    if len(rows) == 1 and len(rows[0]) == 1:
        v = rows[0][0]
        # [x] of one value is x itself (a 1x1 cell stays a cell).
        return v
    if any(isinstance(v, DeviceValue) for row in rows for v in row):
        return _device_concat(rows)
    return concat_rows(rows)


def _device_concat(rows: list[list[Any]]) -> Any:
    """``[...]`` with a gpuArray item: concatenated by the accelerate layer,
    so the result stays a gpuArray (hidden when every device part was)."""
    parts = [v for row in rows for v in row]
    return keep_visibility(device_router().concat(rows), *parts)


def cell_concat(rows: list[list[Any]]) -> CellArray:
    """``{a b; c d}``."""
    return cell_rows(rows)


def is_true(v: Any) -> bool:
    """Truth of an ``if``/``while`` condition: non-empty and all nonzero."""
    t = type(v)
    if t is bool:
        return v
    if t is float:
        if v != v:
            raise MatlabError("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
        return v != 0.0
    if isinstance(v, DeviceValue):
        v = v.gather()
        t = type(v)
        if t is bool or t is float:
            return is_true(v)
    if t is np.ndarray:
        if v.size == 0:
            return False
        if v.dtype == np.bool_:
            return bool(v.all())
        if v.dtype == CHAR_DTYPE:
            return bool(np.all(char_codes(v) != 0))
        if v.dtype.kind == "c":
            v = v.real
        return bool(np.all(convert(v, "logical")))
    if t is complex:
        return is_true(v.real)
    if t is SparseMatrix:
        return sparse_truth(v)
    if t is StringArray:
        raise MatlabError("MATLAB:invalidConversion",
                          "Conversion to logical from string is not possible.")
    raise MatlabError("MATLAB:invalidConversion",
                      f"Conversion to logical from {class_of(v)} is not possible.")
