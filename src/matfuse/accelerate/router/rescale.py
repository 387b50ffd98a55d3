"""Device path of ``rescale`` (to [l, u] by the data's minimum and maximum).

``rescale(A, l, u)`` with ``'InputMin'``/``'InputMax'`` scalars: ``A``
clipped to [min, max] (NaN kept), ``(A - min) ./ (max - min)`` (0 where the
span is 0), then ``l + s .* (u - l)``; integer data computes in double.

Other forms (complex data, array bounds) return None: the dispatcher's
counted host fallback, which raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import (
    EMPTY, FLOAT, INT_EXACT_IN_DOUBLE, call, host_scalar, nan_where_true, op,
)
from matfuse.runtime.values import char_array, is_char, to_str

_ALL = char_array("all")
_RESCALE_CLASSES = FLOAT + INT_EXACT_IN_DOUBLE


def rescale_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``rescale(A)``, ``rescale(A, l, u)`` and ``'InputMin'``/``'InputMax'``
    options, every bound a host real scalar."""
    if nargout > 1 or not args:
        return None
    x = args[0]
    if not isinstance(x, GpuArray) or x.is_complex() or x.matlab_class not in _RESCALE_CLASSES \
            or 0 in x.shape:
        return None
    rest = list(args[1:])
    options: dict[str, float] = {}
    while len(rest) >= 2 and is_char(rest[-2]):
        name = to_str(rest[-2]).lower()
        value = host_scalar(rest[-1])
        if name not in ("inputmin", "inputmax") or value is None or name in options:
            return None
        options[name] = value
        del rest[-2:]
    bounds = [host_scalar(v) for v in rest]
    if len(bounds) > 2 or any(b is None for b in bounds):
        return None
    lower, upper = (bounds + [0.0, 1.0][len(bounds):])[:2]
    work = x if x.matlab_class in FLOAT else call("double", x)
    in_min = options["inputmin"] if "inputmin" in options else call("min", work, EMPTY, _ALL)
    in_max = options["inputmax"] if "inputmax" in options else call("max", work, EMPTY, _ALL)
    clipped = call("min", call("max", work, in_min), in_max)
    clipped = op("+", clipped, nan_where_true(call("isnan", work)))   # max/min drop NaN
    span = op("-", in_max, in_min)
    scaled = op("./", op("-", clipped, in_min), op("+", span, op("==", span, 0.0)))
    return [op("+", lower, op(".*", scaled, upper - lower))]


COMPOSED = {"rescale": rescale_on_device}
