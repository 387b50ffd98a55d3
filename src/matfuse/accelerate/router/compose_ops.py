"""MATLAB-level operations for device implementations composed from other
builtins (``series``, ``structured``, ``quantiles``, ``bits`` ...).

Each helper calls the runtime the way a program would (``call_builtin``,
``ops.binary``, ``paren_get``), so gpuArray operands take the device paths
(fused kernels or provider hooks) and any form those leave to the host is
counted there, not hidden here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.runtime.values import char_array

FLOAT = ("double", "single")
INT_EXACT_IN_DOUBLE = ("int8", "uint8", "int16", "uint16", "int32", "uint32")
COLON = char_array(":")
LIKE = char_array("like")
EMPTY = np.zeros((0, 0))     # the ``[]`` of ``max(x, [], dim)``


def call(name: str, *args: Any, nargout: int = 1) -> Any:
    """``name(args...)``: its first output (all ``nargout`` of them when > 1)."""
    from matfuse.runtime.dispatcher import call_builtin
    from matfuse.runtime.registry import lookup

    outputs = call_builtin(lookup(name), list(args), nargout, None)
    return outputs if nargout > 1 else outputs[0]


def op(symbol: str, a: Any, b: Any) -> Any:
    """``a symbol b`` (``+ - .* ./ .^ == < &`` ...)."""
    from matfuse.runtime import ops

    return ops.binary(symbol, a, b)


def index(v: Any, *subs: Any) -> Any:
    """``v(subs...)``."""
    from matfuse.runtime.indexing import paren_get

    return paren_get(v, list(subs))


def assign(v: Any, subs: list[Any], rhs: Any) -> Any:
    """``v(subs...) = rhs`` (a new value; ``v`` is not changed)."""
    from matfuse.runtime._assign import paren_set

    return paren_set(v, subs, rhs)


def stack_rows(*parts: Any) -> Any:
    """``[a; b; ...]`` of matrices with many columns, as the transpose of
    ``[a.' b.' ...]``: a provider's row concatenation may copy one block per
    column (wgpu takes at most 256 blocks), a column concatenation one per part."""
    if max(size_of(v)[1] for v in parts) <= 64:
        return call("vertcat", *parts)
    return call("transpose", call("horzcat", *[call("transpose", v) for v in parts]))


def along(ndim: int, dim: int, first: int, last: int) -> list[Any]:
    """Subscripts selecting positions ``first..last`` (1-based) along 0-based
    ``dim`` and everything along the other dimensions."""
    subs: list[Any] = [COLON] * max(ndim, dim + 1)
    subs[dim] = np.arange(first, last + 1, dtype=np.float64).reshape(1, -1)
    return subs


def real_float(x: Any) -> bool:
    """A non-empty real double/single gpuArray."""
    return isinstance(x, GpuArray) and x.matlab_class in FLOAT and not x.is_complex() \
        and 0 not in x.shape


def host_scalar(v: Any) -> float | None:
    """A host real scalar as float (None for anything else)."""
    if type(v) is float:
        return v
    if type(v) is np.ndarray and v.size == 1 and v.dtype.kind in "fiub":
        return float(v.reshape(-1)[0])
    return None


def positive_int(v: Any) -> int | None:
    """A host positive integer scalar, or None."""
    s = host_scalar(v)
    if s is not None and s >= 1 and s == int(s):
        return int(s)
    return None


def first_nonsingleton(shape: tuple[int, ...]) -> int:
    for i, d in enumerate(shape):
        if d != 1:
            return i
    return 0


def size_of(v: Any) -> tuple[int, ...]:
    """MATLAB size of a host or device value (scalars are 1x1)."""
    if type(v) in (float, bool, complex):
        return (1, 1)
    return tuple(v.shape)


def where(mask: Any, if_true: Any, if_false: Any) -> Any:
    """Elementwise ``mask ? if_true : if_false`` of three same-size device
    arrays of one class: ``[if_false(:); if_true(:)]`` gathered at ``i +
    mask_i * numel`` (no read-back, exact for any value, NaN and -0
    included)."""
    shape = size_of(if_false)
    count = int(np.prod(shape))
    both = call("vertcat", call("reshape", if_false, float(count), 1.0),
                call("reshape", if_true, float(count), 1.0))
    picks = call("double", call("reshape", mask, float(count), 1.0))
    offsets = op("-", call("cumsum", call("ones", float(count), 1.0, LIKE, picks)), 1.0)
    chosen = op("+", offsets, op(".*", picks, float(count)))
    from matfuse.accelerate.router.device_subscripts import gather_at

    return gather_at(both, call("int32", chosen), shape)


def nan_where_true(mask: Any) -> Any:
    """NaN where ``mask`` is true, 0 elsewhere (``0 ./ ~mask``), to add to a result."""
    return op("./", 0.0, call("not", mask))


def dims_of(v: Any, shape: tuple[int, ...]) -> tuple[int, ...] | None | str:
    """0-based dims of an optional ``dim``/``vecdim``/``'all'`` argument
    (None or ``[]``: the first non-singleton dimension; ``'all'``: None);
    ``"bad"`` for anything else (the host raises MATLAB's error)."""
    from matfuse.runtime.values import is_char, to_str

    if v is None or (type(v) is np.ndarray and v.size == 0 and v.dtype.kind in "fiub"):
        return (first_nonsingleton(shape),)
    if is_char(v):
        return None if to_str(v).lower() == "all" else "bad"
    if type(v) is float:
        v = np.array([[v]])
    if type(v) is not np.ndarray or v.dtype.kind not in "fiu" or v.ndim != 2 or min(v.shape) != 1:
        return "bad"
    values = [float(d) for d in v.reshape(-1)]
    if any(d < 1 or d != int(d) for d in values) or len(set(values)) != len(values):
        return "bad"
    return tuple(int(d) - 1 for d in values)


def as_columns(x: Any, dims: tuple[int, ...] | None) -> tuple[Any, tuple[int, ...]]:
    """``x`` with the ``dims`` (None: all) brought to the front and reshaped
    to an L x R matrix (one column per slice), and the shape of a reduction
    over those dims (each reduced dimension of size 1)."""
    shape = tuple(x.shape)
    ndim = len(shape)
    if dims is None:
        dims = tuple(range(ndim))
    dims = tuple(d for d in dims if d < ndim)
    keep = [d for d in range(ndim) if d not in dims]
    out_shape = matlab_shape(tuple(1 if d in dims else n for d, n in enumerate(shape)))
    length = int(np.prod([shape[d] for d in dims])) if dims else 1
    order = list(dims) + keep
    if order != list(range(ndim)):
        x = call("permute", x, np.array([[d + 1.0 for d in order]]))
    cols = int(np.prod(shape)) // max(length, 1)
    return call("reshape", x, float(length), float(cols)), out_shape


def matlab_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
    """``shape`` without trailing singleton dimensions past the second."""
    shape = tuple(shape) + (1,) * (2 - len(shape))
    while len(shape) > 2 and shape[-1] == 1:
        shape = shape[:-1]
    return shape
