"""Device paths of ``norm`` (vector norms; the 1, Inf and Frobenius norms of
matrices) and ``rescale`` (to [l, u] by the data's minimum and maximum).

``norm`` uses the host's formulas: the vector 2-norm and the Frobenius norm
scaled by the largest magnitude (``normalization.vector_norm``), the matrix
1-norm as the largest column sum of magnitudes, the Inf-norm as the largest
row sum (NaN propagates, as ``max`` with ``'includenan'``). The matrix
2-norm needs singular values: left to the host.

``rescale(A, l, u)`` with ``'InputMin'``/``'InputMax'`` scalars: ``A``
clipped to [min, max] (NaN kept), ``(A - min) ./ (max - min)`` (0 where the
span is 0), then ``l + s .* (u - l)``; integer data computes in double.

Other forms (complex data, array bounds, N-D input) return None: the
dispatcher's counted host fallback, which raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import (
    COLON, EMPTY, FLOAT, INT_EXACT_IN_DOUBLE, call, host_scalar, index, nan_where_true, op, real_float,
)
from matfuse.accelerate.router.normalization import vector_norm
from matfuse.runtime.values import char_array, is_char, to_str

_ALL = char_array("all")
_INCLUDENAN = char_array("includenan")


def _norm_kind(v: Any) -> float | str | None:
    """The ``p`` of ``norm(x, p)``: a number, ``'fro'``, +-Inf; None if unknown."""
    if v is None:
        return 2.0
    if is_char(v):
        word = to_str(v).lower()
        return {"fro": "fro", "inf": np.inf, "-inf": -np.inf}.get(word)
    return host_scalar(v)


def norm_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``norm(v, p)`` of real float vectors; ``norm(A, 1|Inf|'fro')`` of matrices."""
    if nargout > 1 or len(args) not in (1, 2) or not real_float(args[0]):
        return None
    x = args[0]
    p = _norm_kind(args[1] if len(args) == 2 else None)
    if p is None or isinstance(args[1] if len(args) == 2 else None, GpuArray) or len(x.shape) != 2:
        return None
    if 1 in x.shape or p == "fro":
        column = index(x, COLON)
        if p == -np.inf:
            return [call("min", call("abs", column), EMPTY, 1.0, _INCLUDENAN)]
        if p == "fro":
            p = 2.0
        if not p > 0 or p != p:
            return None
        return [vector_norm(column, float(p), 1.0)]
    if p == 1.0:
        sums = call("sum", call("abs", x), 1.0)
    elif p == np.inf:
        sums = call("sum", call("abs", x), 2.0)
    else:
        return None
    return [call("max", sums, EMPTY, _ALL, _INCLUDENAN)]


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


COMPOSED = {
    "norm": norm_on_device,
    "rescale": rescale_on_device,
}
