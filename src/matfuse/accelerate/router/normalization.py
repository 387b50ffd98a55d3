"""Device path of ``normalize``: every method of the host builtin, composed
from device reductions along the dimension (``mean``, ``std``, ``median``,
``min``/``max`` with ``'includenan'``, sums of powers) and elementwise
operators, with the host's formulas:

* ``'zscore'`` (default): ``(x - mean) ./ std``; ``'robust'``: centre the
  median, scale by the median absolute deviation;
* ``'range'`` (to ``[0 1]`` or ``[a b]``): ``a + (x - min) ./ (max - min) * (b - a)``;
* ``'center'`` (mean, median or a host value), ``'scale'`` (std, mad,
  first, or a host value);
* ``'norm'`` (p-norm along the dimension; 2 by default, ``Inf``).

NaN propagates through each statistic, as on the host. Complex, integer or
empty data, device-valued options and unknown methods return None: the
dispatcher's counted host fallback, which raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.router.compose_ops import (
    EMPTY, assign, call, first_nonsingleton, host_scalar, index, along, nan_where_true, op,
    positive_int, real_float,
)
from matfuse.runtime.values import DeviceValue, char_array, is_char, to_str

_INCLUDENAN = char_array("includenan")


def _word(v: Any) -> str | None:
    return to_str(v).lower() if is_char(v) else None


def _host_numeric(v: Any) -> bool:
    return type(v) is float or (type(v) is np.ndarray and v.dtype.kind in "fiu" and v.size > 0)


def _median(x: Any, dim: float) -> Any:
    return call("median", x, dim)


def _mad(x: Any, dim: float) -> Any:
    return _median(call("abs", op("-", x, _median(x, dim))), dim)


def vector_norm(x: Any, p: float, dim: float) -> Any:
    """p-norm along ``dim`` by the host's formulas (the 2-norm scaled by the
    largest magnitude, so squares never overflow)."""
    a = call("abs", x)
    if p == np.inf:
        return call("max", a, EMPTY, dim, _INCLUDENAN)
    if p == 1.0:
        return call("sum", a, dim)
    if p != 2.0:
        return op(".^", call("sum", op(".^", a, p), dim), 1.0 / p)
    scale = call("max", a, EMPTY, dim)
    safe = op("+", scale, op("==", scale, 0.0))
    out = op(".*", safe, call("sqrt", call("sum", op(".^", op("./", a, safe), 2.0), dim)))
    infinite = call("isinf", scale)
    out = assign(out, [infinite], call(x.matlab_class, op(".*", index(scale, infinite), 1.0)))
    return op("+", out, nan_where_true(call("any", call("isnan", a), dim)))


def _centre(x: Any, option: Any, dim: float) -> Any | None:
    word = "mean" if option is None else _word(option)
    if word == "mean":
        return call("mean", x, dim)
    if word == "median":
        return _median(x, dim)
    if word is None and _host_numeric(option):
        return option
    return None


def _scale(x: Any, option: Any, dim: float, axis: int) -> Any | None:
    word = "std" if option is None else _word(option)
    if word == "std":
        return call("std", x, 0.0, dim)
    if word == "mad":
        return _mad(x, dim)
    if word == "first":
        return index(x, *along(len(x.shape), axis, 1, 1))
    if word is None and _host_numeric(option):
        return option
    return None


def normalize_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``normalize(x)``, ``normalize(x, dim)``, ``normalize(x, [dim,] method[, option])``."""
    if nargout > 1 or not args or not real_float(args[0]) or len(args) > 4:
        return None
    x, rest = args[0], list(args[1:])
    if any(isinstance(a, DeviceValue) for a in rest):
        return None
    axis = first_nonsingleton(tuple(x.shape))
    if rest and not is_char(rest[0]):
        d = positive_int(rest.pop(0))
        if d is None:
            return None
        axis = d - 1
    method = _word(rest.pop(0)) if rest else "zscore"
    option = rest.pop(0) if rest else None
    if rest or method is None:
        return None
    dim = float(axis + 1)
    if method == "zscore":
        if option is not None and _word(option) == "robust":
            centre = _median(x, dim)
            return [op("./", op("-", x, centre), _mad(x, dim))]
        if option is not None and _word(option) != "std":
            return None
        return [op("./", op("-", x, call("mean", x, dim)), call("std", x, 0.0, dim))]
    if method == "range":
        lo_hi = (0.0, 1.0)
        if option is not None:
            if not (type(option) is np.ndarray and option.size == 2 and option.dtype.kind in "fiu"):
                return None
            lo_hi = tuple(float(b) for b in option.reshape(-1))
        mn = call("min", x, EMPTY, dim, _INCLUDENAN)
        mx = call("max", x, EMPTY, dim, _INCLUDENAN)
        scaled = op("./", op("-", x, mn), op("-", mx, mn))
        return [op("+", lo_hi[0], op(".*", scaled, lo_hi[1] - lo_hi[0]))]
    if method == "center":
        centre = _centre(x, option, dim)
        return None if centre is None else [op("-", x, centre)]
    if method == "scale":
        scale = _scale(x, option, dim, axis)
        return None if scale is None else [op("./", x, scale)]
    if method == "norm":
        p = 2.0 if option is None else (np.inf if _word(option) == "inf" else host_scalar(option))
        if p is None or not p > 0:
            return None
        return [op("./", x, vector_norm(x, p, dim))]
    return None


COMPOSED = {"normalize": normalize_on_device}
