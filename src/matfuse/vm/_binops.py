"""Generated closures for ``left op right`` of the elementwise and scalar
operators.

One closure source is generated per (operator, operand kinds) so variable
reads and constants need no extra call. Two cases run inline: Python floats
(and logical scalars acting as 0/1), and small real double matrices with a
float or with a double matrix of the same size (``v > t``, ``(1:10) * k``,
``a .* b``), which is what ``runtime.ops.binary`` does for them: one NumPy
ufunc. ``runtime.ops.binary`` handles every other case.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.runtime import ops as _ops
from matfuse.runtime._host_threads import MIN_PARALLEL_ELEMENTS
from matfuse.runtime.dispatcher import AUTO_OFFLOAD

Closure = Callable[[Any], Any]

# Operators with a Python-float fast path: MATLAB op -> Python operator.
# Results stay Python floats/bools like the value model says.
PY_OPS = {"+": "+", "-": "-", ".*": "*", "*": "*", "./": "/", "/": "/",
          "==": "==", "~=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
_binary_factories: dict[tuple[str, str, str], Callable] = {}

_FETCH = {
    "var": ("        try:\n            {v} = fr[{v}_name]\n"
            "        except KeyError:\n            {v} = {v}_fn(fr)\n"),
    "const": "        {v} = {v}_const\n",
    "expr": "        {v} = {v}_fn(fr)\n",
}

_F64 = np.dtype(np.float64)

# A double matrix of 2 up to this many elements (and below the offload
# hooks' ``min_array``) is computed inline: larger ones go through
# ``runtime.ops``, which splits them across threads.
_SMALL = MIN_PARALLEL_ELEMENTS


def _small_double(v: str) -> str:
    """Source testing that ndarray ``v`` is a small real double matrix that
    no offload hook can claim."""
    return (f"{v}.dtype is F64 and {v}.ndim == 2 and 1 < {v}.size < SMALL "
            f"and {v}.size < AUTO.min_array")


def _array_paths(op: str, a_kind: str, b_kind: str) -> str:
    """Source of the inline small-double-matrix cases of ``op`` (what
    ``runtime.ops._host_binary`` computes for them), for the operand kinds."""
    array_scalar = op in _ops._ARRAY_SCALAR_UFUNCS
    scalar_array = op in _ops._SCALAR_ARRAY_UFUNCS
    array_array = op in _ops._DOUBLE_UFUNCS
    src = ""
    if a_kind != "const":
        cases = ""
        if array_scalar:
            cases += ("                return AS(a, b)\n" if b_kind == "const" else
                      "                if type(b) is float:\n"
                      "                    return AS(a, b)\n")
        if array_array and b_kind != "const":
            cases += ("                if type(b) is ndarray and b.dtype is F64 "
                      "and b.shape == a.shape:\n"
                      "                    return AA(a, b)\n")
        if cases:
            src += ("        if type(a) is ndarray:\n"
                    f"            if {_small_double('a')}:\n" + cases)
    if scalar_array and b_kind != "const":
        test = "type(b) is ndarray" if a_kind == "const" \
            else "type(a) is float and type(b) is ndarray"
        src += (f"        if {test}:\n"
                f"            if {_small_double('b')}:\n"
                "                return SA(a, b)\n")
    return src


def make_binary(op: str, left: tuple, right: tuple) -> Closure:
    """A closure for ``left op right`` with the float and small double
    matrix cases inlined (see the module docstring); ``left``/``right``:
    (kind, name or constant, closure) as ``ExprCompiler._operand`` makes."""
    key = (op, left[0], right[0])
    factory = _binary_factories.get(key)
    if factory is None:
        pyop = PY_OPS[op]
        checks = [f"type({v}) is float" for v, kind in (("a", left[0]), ("b", right[0]))
                  if kind != "const"]
        if pyop == "/":
            checks.append("b != 0.0")
        cond = " and ".join(checks) or "True"
        # Logical scalars in arithmetic or comparisons act as 0/1 doubles
        # (``count + isempty(x)``): still no trip through runtime.ops.
        logical = ""
        if pyop != "/":
            mixed = [f"(type({v}) is float or type({v}) is bool)"
                     for v, kind in (("a", left[0]), ("b", right[0])) if kind != "const"]
            if mixed:
                result = f"a {pyop} b" if pyop in ("==", "!=", "<", "<=", ">", ">=") \
                    else f"float(a) {pyop} float(b)"
                logical = f"        if {' and '.join(mixed)}:\n            return {result}\n"
        src = ("def factory(a_name, a_const, a_fn, b_name, b_const, b_fn, binary, op,\n"
               "            AS, SA, AA, ndarray, F64, SMALL, AUTO):\n"
               "    def binop(fr):\n"
               + _FETCH[left[0]].format(v="a")
               + _FETCH[right[0]].format(v="b")
               + f"        if {cond}:\n            return a {pyop} b\n"
               + logical
               + _array_paths(op, left[0], right[0]) +
               "        return binary(op, a, b)\n"
               "    return binop\n")
        namespace: dict[str, Any] = {}
        exec(compile(src, f"<binary {op} {left[0]} {right[0]}>", "exec"), namespace)
        factory = namespace["factory"]
        _binary_factories[key] = factory
    a_kind, a_val, a_fn = left
    b_kind, b_val, b_fn = right
    return factory(a_val if a_kind == "var" else None, a_val if a_kind == "const" else None,
                   a_fn, b_val if b_kind == "var" else None,
                   b_val if b_kind == "const" else None, b_fn, _ops.binary, op,
                   _ops._ARRAY_SCALAR_UFUNCS.get(op), _ops._SCALAR_ARRAY_UFUNCS.get(op),
                   _ops._DOUBLE_UFUNCS.get(op), np.ndarray, _F64, _SMALL, AUTO_OFFLOAD)
