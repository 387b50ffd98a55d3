"""Device paths of the structure tests ``istril``, ``istriu``, ``isdiag``,
``issymmetric``, ``ishermitian`` and ``issorted``.

Each test is one comparison on the device reduced to a logical scalar by
``any(..., 'all')`` and read back; the answer is a host logical, as the
host builtins return:

* triangular/diagonal: no nonzero (NaN counts) off the triangle, the
  elements ``tril``/``triu`` would zero;
* symmetric/Hermitian: no element differs from its transpose (conjugate
  transpose; negated for ``'skew'``); NaN differs from itself;
* sorted: a stable ``sort`` along the dimension leaves every index in place.

Forms left to the host (counted fallback, which raises MATLAB's errors):
tolerances, ``'rows'``, complex data for ``issorted``, empty arrays.
Arrays with more than two dimensions are not triangular, diagonal or
symmetric (answered here without reading the data).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import FLOAT, INT_EXACT_IN_DOUBLE, call, op, positive_int
from matfuse.accelerate.router.real_domain import any_true
from matfuse.runtime.values import char_array, is_char, to_str

_CLASSES = FLOAT + INT_EXACT_IN_DOUBLE + ("logical",)


def _device_matrix(args: list[Any], nargout: int, extra: int = 0) -> GpuArray | None:
    """The gpuArray argument of a one-argument test (``extra`` more allowed)."""
    if nargout > 1 or not 1 <= len(args) <= 1 + extra:
        return None
    a = args[0]
    if not isinstance(a, GpuArray) or a.matlab_class not in _CLASSES or 0 in a.shape:
        return None
    return a


def _off_band(lower: bool, upper: bool) -> Any:
    """``istril`` (nothing above), ``istriu`` (nothing below), ``isdiag`` (neither)."""
    def test(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
        a = _device_matrix(args, nargout)
        if a is None:
            return None
        if len(a.shape) != 2:
            return [False]
        if a.is_complex():
            a = call("abs", a)
        nonzero = []
        if lower:   # elements above the diagonal must be zero
            nonzero.append(op("~=", call("triu", a, 1.0), 0.0))
        if upper:   # elements below the diagonal must be zero
            nonzero.append(op("~=", call("tril", a, -1.0), 0.0))
        return [not any(any_true(m) for m in nonzero)]
    test.__doc__ = "Whether every nonzero lies on the allowed side of the diagonal."
    return test


def _symmetry(conjugate: bool) -> Any:
    def test(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
        a = _device_matrix(args, nargout, extra=1)
        if a is None:
            return None
        skew = False
        if len(args) == 2:
            if not is_char(args[1]) or to_str(args[1]).lower() not in ("skew", "nonskew"):
                return None  # a tolerance, or MATLAB's error on the host
            skew = to_str(args[1]).lower() == "skew"
        if len(a.shape) != 2 or a.shape[0] != a.shape[1]:
            return [False]
        if a.matlab_class not in FLOAT:
            a = call("double", a)
        t = call("ctranspose" if conjugate else "transpose", a)
        if skew:
            t = call("uminus", t)
        return [not any_true(op("~=", a, t))]
    test.__doc__ = ("Whether A equals its " + ("conjugate " if conjugate else "") +
                    "transpose (its negation with 'skew').")
    return test


def issorted_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``issorted(x)``, ``issorted(x, dim)``, ``issorted(x, 'descend')`` and
    ``(x, dim, direction)`` of real double/single data: whether a stable sort
    keeps every element in place (NaN last ascending, first descending)."""
    a = _device_matrix(args, nargout, extra=2)
    if a is None or a.is_complex() or a.matlab_class not in FLOAT:
        return None
    dim = None
    direction = "ascend"
    for v in args[1:]:
        if is_char(v) and to_str(v).lower() in ("ascend", "descend"):
            direction = to_str(v).lower()
        elif positive_int(v) is not None and dim is None:
            dim = positive_int(v) - 1
        else:
            return None
    shape = tuple(a.shape)
    if dim is None:
        dim = next((i for i, n in enumerate(shape) if n != 1), 0)
    if dim >= len(shape) or shape[dim] == 1:
        return [True]
    _, where = call("sort", a, float(dim + 1), char_array(direction), nargout=2)
    place = [1] * len(shape)
    place[dim] = shape[dim]
    in_place = np.arange(1, shape[dim] + 1, dtype=np.float64).reshape(place)
    return [not any_true(op("~=", where, in_place))]


COMPOSED = {
    "istril": _off_band(True, False),
    "istriu": _off_band(False, True),
    "isdiag": _off_band(True, True),
    "issymmetric": _symmetry(False),
    "ishermitian": _symmetry(True),
    "issorted": issorted_on_device,
}
