"""Device paths of ``diag`` (the provider's diag kernel, or a gather or a
scatter at the positions of one diagonal) and ``blkdiag`` (blocks written
into a zero matrix).

* ``diag(A, k)`` of an m-by-n matrix: the elements ``A(i, i+k)`` as a
  column, one gather at the linear positions ``s, s+m+1, s+2(m+1), ...``
  (``s = k*m + 1`` above the main diagonal, ``1 - k`` below it);
* ``diag(v, k)`` of a vector of n elements: an N-by-N zero matrix of v's
  class (``N = n + |k|``) with v scattered onto its k-th diagonal.

``blkdiag(A, B, ...)`` makes a zero matrix of the concatenation class of
its arguments (logical blocks give double) and writes each non-empty block
at its offset.

The positions are a short host range made from the sizes alone. Empty,
N-D and 64-bit integer data, and a non-integer ``k``, return None: the
dispatcher's counted host fallback, which also raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray, wrap_handle
from matfuse.accelerate_api import Unsupported
from matfuse.accelerate.class_rules import operand_kind
from matfuse.accelerate.router.compose_ops import assign, call, index, size_of
from matfuse.runtime._classrules import concat_class
from matfuse.runtime.values import char_array

_LIKE = char_array("like")
_NO_64_BIT = ("int64", "uint64")


def _offset(args: list[Any]) -> int | None:
    if len(args) == 1:
        return 0
    k = args[1]
    if type(k) is not float or k != int(k):
        return None
    return int(k)


def _column(first: int, step: int, count: int) -> np.ndarray:
    """1-based linear positions ``first, first+step, ...`` as a double column."""
    return (first + step * np.arange(count, dtype=np.float64)).reshape(-1, 1)


def diag_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``diag(x)`` / ``diag(x, k)`` of a 2-D gpuArray (see the module doc)."""
    if nargout > 1 or not 1 <= len(args) <= 2 or not isinstance(args[0], GpuArray):
        return None
    x, k = args[0], _offset(args)
    if k is None or len(x.shape) != 2 or 0 in x.shape or x.matlab_class in _NO_64_BIT:
        return None
    m, n = x.shape
    try:   # the provider's diag kernel, else the composition below
        return [wrap_handle(x.provider.diag(x.valid_handle(), k), x.matlab_class, x.provider)]
    except Unsupported:
        pass
    if m == 1 or n == 1:
        count = m * n
        size = count + abs(k)
        rows = np.arange(count, dtype=np.float64) + max(-k, 0)
        cols = np.arange(count, dtype=np.float64) + max(k, 0)
        positions = (cols * size + rows + 1).reshape(-1, 1)
        square = call("zeros", float(size), float(size), _LIKE, x)
        return [assign(square, [positions], call("reshape", x, float(count), 1.0))]
    count = min(m, n - k) if k >= 0 else min(m + k, n)
    if count <= 0:
        return [call("zeros", 0.0, 1.0, _LIKE, x)]
    first = k * m + 1 if k >= 0 else 1 - k
    return [index(x, _column(first, m + 1, count))]


def blkdiag_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``blkdiag(A, B, ...)`` with a gpuArray block (2-D real or complex
    numeric or logical blocks; others return None)."""
    if nargout > 1 or not args:
        return None
    shapes, classes = [], []
    for a in args:
        kind = operand_kind(a)
        shape = size_of(a)
        if kind is None or kind[0] in _NO_64_BIT + ("char",) or len(shape) != 2:
            return None
        shapes.append(shape)
        classes.append(kind[0])
    cls = concat_class(classes)
    cls = "double" if cls == "logical" else cls
    first = next(a for a in args if isinstance(a, GpuArray))
    rows, cols = sum(s[0] for s in shapes), sum(s[1] for s in shapes)
    out = call("zeros", float(rows), float(cols), _LIKE, first)
    if out.matlab_class != cls:
        out = call(cls, out)
    if any(operand_kind(a)[1] for a in args):
        out = call("complex", out, 0.0)
    r = c = 0
    for a, (m, n) in zip(args, shapes):
        if m and n:
            block = a if operand_kind(a)[0] == cls else call(cls, a)
            out = assign(out, [_column(r + 1, 1, m).T, _column(c + 1, 1, n).T], block)
        r, c = r + m, c + n
    return [out]


COMPOSED = {"diag": diag_on_device, "blkdiag": blkdiag_on_device}
