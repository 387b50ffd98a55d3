"""Device paths of ``dot``, ``cross``, ``nthroot`` and ``repelem``, composed
from device operations the way the host computes them.

* ``dot(a, b, dim)``: ``sum(conj(a) .* b, dim)`` (two vectors of one length
  as columns, whatever their orientation);
* ``cross(a, b, dim)``: the three products of the operands' ranges along the
  dimension of length 3, joined along it;
* ``nthroot(x, n)``: ``sign(x) .* abs(x).^(1/n)`` and the host's one Newton
  step (exact roots stay exact); a negative ``x`` with an ``n`` that is not
  an odd integer is MATLAB's error (one any-reduction read back);
* ``repelem(v, k)`` / ``repelem(A, r, c)`` with whole scalar counts: a read
  of repeated subscripts (``floor((0:n*k-1)/k) + 1``: vectors of the
  result's length along each dimension, never of its element count).

Other forms (complex ``nthroot``, count vectors of ``repelem``, size
mismatches) return None: the dispatcher's counted host fallback, which
raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import (
    COLON, call, first_nonsingleton, host_scalar, index, op, size_of, where,
)
from matfuse.errors import MatlabError
from matfuse.runtime.values import char_array

_ALL = char_array("all")


def _is_vector(shape: tuple[int, ...]) -> bool:
    return len(shape) == 2 and 1 in shape


def _device(args: list[Any]) -> bool:
    return any(isinstance(a, GpuArray) for a in args) and all(
        not isinstance(a, GpuArray) or (not a.is_complex() and 0 not in a.shape) for a in args)


def dot_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    if len(args) not in (2, 3) or nargout > 1 or not _device(args[:2]):
        return None
    a, b = args[0], args[1]
    sa, sb = size_of(a), size_of(b)
    if len(args) == 2 and _is_vector(sa) and _is_vector(sb) and np.prod(sa) == np.prod(sb):
        count = float(np.prod(sa))
        a, b = call("reshape", a, count, 1.0), call("reshape", b, count, 1.0)
        sa = sb = (int(count), 1)
    if sa != sb:
        return None
    dim = float(first_nonsingleton(sa) + 1) if len(args) == 2 else args[2]
    if type(dim) is not float:
        return None
    return [call("sum", op(".*", a, b), dim)]


def cross_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    if len(args) not in (2, 3) or nargout > 1 or not _device(args[:2]):
        return None
    a, b = args[0], args[1]
    shape = size_of(a)
    if size_of(b) != shape:
        return None
    if len(args) == 3:
        if type(args[2]) is not float or args[2] != int(args[2]) or args[2] < 1:
            return None
        axis = int(args[2]) - 1
    else:
        axis = next((i for i, d in enumerate(shape) if d == 3), -1)
    if axis < 0 or axis >= len(shape) or shape[axis] != 3:
        return None

    def part(v: Any, k: int) -> Any:
        subs: list[Any] = [COLON] * len(shape)
        subs[axis] = float(k)
        return index(v, *subs)

    def term(i: int, j: int) -> Any:
        return op("-", op(".*", part(a, i), part(b, j)), op(".*", part(a, j), part(b, i)))

    return [call("cat", float(axis + 1), term(2, 3), term(3, 1), term(1, 2))]


def nthroot_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    if len(args) != 2 or nargout > 1 or not isinstance(args[0], GpuArray):
        return None
    x, n = args
    degree = host_scalar(n)
    if degree is None or x.is_complex() or x.matlab_class not in ("double", "single") \
            or 0 in x.shape:
        return None
    if not (degree % 2 == 1):
        negative = call("any", op("<", x, 0.0), _ALL)
        if bool(np.asarray(call("gather", negative)).reshape(-1)[0]):
            raise MatlabError("MATLAB:nthroot:NegXNotOddIntegerN",
                              "If X is negative, N must be an odd integer.")
    y = op(".*", call("sign", x), op(".^", call("abs", x), 1.0 / degree))
    if not (np.isfinite(degree) and degree != 0):
        return [y]
    correction = op("./", op("-", op(".^", y, degree), x), op(".*", degree, op(".^", y, degree - 1)))
    refine = op("&", op("&", op("~=", y, 0.0), call("isfinite", y)), call("isfinite", correction))
    return [where(refine, op("-", y, correction), y)]


def _repeated(count: int, times: int) -> np.ndarray:
    return (np.arange(count * times) // times + 1.0).reshape(1, -1)


def repelem_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    if nargout > 1 or len(args) not in (2, 3) or not isinstance(args[0], GpuArray):
        return None
    x = args[0]
    counts = [host_scalar(c) for c in args[1:]]
    if any(c is None or c < 0 or c != int(c) for c in counts) or len(x.shape) != 2 \
            or 0 in x.shape:
        return None
    rows, cols = x.shape
    if len(counts) == 1:
        if not _is_vector(x.shape):
            return None
        k = int(counts[0])
        if k == 0:
            return None
        if rows == 1:
            return [index(x, 1.0, _repeated(cols, k))]
        return [index(x, _repeated(rows, k).reshape(-1, 1), 1.0)]
    r, c = int(counts[0]), int(counts[1])
    if r == 0 or c == 0:
        return None
    return [index(x, _repeated(rows, r).reshape(-1, 1), _repeated(cols, c))]


COMPOSED = {"dot": dot_on_device, "cross": cross_on_device, "nthroot": nthroot_on_device,
            "repelem": repelem_on_device}
