"""Builtins named after operators: ``plus(a, b)`` is ``a + b`` and so on.

Each is a thin declaration over ``matfuse.runtime.ops`` so the function form
and the operator form can never disagree.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._limits import MAX_DIMENSIONS, too_many_dimensions_error
from matfuse.runtime import ops
from matfuse.runtime._concat import cat_values
from matfuse.runtime._elementwise import logical_op
from matfuse.runtime.builtins._common import dim_arg
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import canonical

# (builtin name, operator token, provider op name)
_BINARY = (
    ("plus", "+", "plus"), ("minus", "-", "minus"), ("times", ".*", "times"),
    ("rdivide", "./", "rdivide"), ("ldivide", ".\\", "ldivide"), ("power", ".^", "power"),
    ("eq", "==", "eq"), ("ne", "~=", "ne"), ("lt", "<", "lt"), ("le", "<=", "le"),
    ("gt", ">", "gt"), ("ge", ">=", "ge"), ("and", "&", "and"), ("or", "|", "or"),
)

_MATRIX = (("mtimes", "*", "matmul"), ("mrdivide", "/", None), ("mldivide", "\\", "solve"),
           ("mpower", "^", None))


def _binary_impl(name: str, token: str) -> Callable[[Any, Any], Any]:
    def impl(a: Any, b: Any) -> Any:
        return ops.binary(token, a, b)

    impl.__name__ = name
    impl.__doc__ = f"``{name}(a, b)`` is ``a {token} b``."
    return impl


for _name, _token, _op in _BINARY:
    builtin(_name, category="operators", nargin=(2, 2),
            gpu=GpuSpec(kind="elementwise", hook="elem_binary", op=_op),
            fusion=_op)(_binary_impl(_name, _token))

for _name, _token, _op in _MATRIX:
    builtin(_name, category="operators", nargin=(2, 2),
            gpu=GpuSpec(kind="matmul" if _op == "matmul" else "linalg", hook=_op, op=_op)
            if _op else None)(_binary_impl(_name, _token))


@builtin("xor", category="operators", nargin=(2, 2),
         gpu=GpuSpec(kind="elementwise", hook="elem_binary", op="xor"), fusion="xor")
def xor(a: Any, b: Any) -> Any:
    """Logical exclusive or, elementwise with implicit expansion. Complex
    operands are documented for xor: an element is true when it is nonzero."""
    return logical_op("xor", _nonzero_if_complex(a), _nonzero_if_complex(b))


def _nonzero_if_complex(v: Any) -> Any:
    """A complex operand as its nonzero test; a NaN part cannot be a
    logical, as for real operands."""
    if type(v) is complex or (type(v) is np.ndarray and v.dtype.kind == "c"):
        arr = np.asarray(v)
        if np.isnan(arr).any():
            raise MatlabError("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
        return canonical(arr != 0)
    return v


@builtin("uminus", category="operators", nargin=(1, 1),
         gpu=GpuSpec(kind="elementwise", hook="elem_unary", op="uminus"), fusion="uminus")
def uminus(a: Any) -> Any:
    """``-a``."""
    return ops.unary("-", a)


@builtin("uplus", category="operators", nargin=(1, 1))
def uplus(a: Any) -> Any:
    """``+a``."""
    return ops.unary("+", a)


@builtin("not", category="operators", nargin=(1, 1),
         gpu=GpuSpec(kind="elementwise", hook="elem_unary", op="not"), fusion="not")
def not_(a: Any) -> Any:
    """``~a``."""
    return ops.unary("~", a)


@builtin("transpose", category="operators", nargin=(1, 1),
         gpu=GpuSpec(kind="indexing", hook="permute", op="transpose"))
def transpose(a: Any) -> Any:
    """``a.'``."""
    return ops.transpose(a)


@builtin("ctranspose", category="operators", nargin=(1, 1),
         gpu=GpuSpec(kind="indexing", hook="permute", op="ctranspose"))
def ctranspose(a: Any) -> Any:
    """``a'``."""
    return ops.ctranspose(a)


@builtin("horzcat", category="operators", nargin=(0, None),
         gpu=GpuSpec(kind="indexing", hook="concat", op="horzcat"))
def horzcat(*args: Any) -> Any:
    """``[a, b, ...]``."""
    return cat_values(list(args), 1)


@builtin("vertcat", category="operators", nargin=(0, None),
         gpu=GpuSpec(kind="indexing", hook="concat", op="vertcat"))
def vertcat(*args: Any) -> Any:
    """``[a; b; ...]``."""
    return cat_values(list(args), 0)


@builtin("cat", category="operators", nargin=(1, None),
         gpu=GpuSpec(kind="indexing", hook="concat", op="cat"))
def cat(dim: Any, *args: Any) -> Any:
    """``cat(dim, a, b, ...)``: concatenation along dimension ``dim``."""
    axis = dim_arg(dim, "cat")
    if axis >= MAX_DIMENSIONS:
        if len(args) == 1:
            return cat_values(list(args), 0)
        raise too_many_dimensions_error()
    out = cat_values(list(args), axis)
    if axis >= 2 and len(args) > 1 and type(out) is np.ndarray and out.size == 0 and all(
            type(a) is np.ndarray and a.shape == (0, 0) for a in args):
        # every operand is [] (0x0): each still counts once along a
        # dimension past the second (cat(3, [], []) is 0x0x2)
        return np.zeros((0, 0) + (1,) * (axis - 2) + (len(args),), dtype=out.dtype)
    return out


@builtin("colon", category="operators", nargin=(2, 3),
         gpu=GpuSpec(kind="construction", hook="colon", op="colon"), fusion="colon")
def colon(a: Any, b: Any, c: Any = None) -> Any:
    """``colon(a, b)`` is ``a:b``; ``colon(a, d, b)`` is ``a:d:b``."""
    if c is None:
        return ops.colon_range(a, None, b)
    return ops.colon_range(a, b, c)
