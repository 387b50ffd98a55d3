"""Device path of ``normalize``: every method and form of the host
builtin, composed from device reductions along the dimension (``mean``,
``std``, ``median``, ``iqr``, ``min``/``max`` with ``'includenan'``, sums
of powers) and elementwise operators, with the host's formulas: each
method gives a centre ``C`` and a scale ``S`` and ``N = (x - C) ./ S``.

* ``'zscore'`` (default): mean and std; ``'robust'``: the median and the
  median absolute deviation;
* ``'range'`` (to ``[0 1]`` or ``[a b]``): ``S = (max - min) / (b - a)``,
  ``C = min - a * S``;
* ``'center'`` (mean, median or a host value), ``'scale'`` (std, mad,
  first, iqr or a host value), and both together;
* ``'medianiqr'``: the median and the interquartile range;
* ``'norm'`` (p-norm along the dimension; 2 by default, ``Inf``).

``[N, C, S] = normalize(...)`` returns ``C`` and ``S`` as device values of
the data's class. NaN propagates through each statistic (``iqr`` ignores
it), as on the host. Complex, integer or empty data, device-valued options
and unknown methods or combinations return None: the dispatcher's counted
host fallback, which raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.router.compose_ops import (
    EMPTY, LIKE, assign, call, first_nonsingleton, host_scalar, index, along, nan_where_true, op,
    positive_int, real_float,
)
from matfuse.runtime.values import DeviceValue, char_array, is_char, to_str

_INCLUDENAN = char_array("includenan")


def _word(v: Any) -> str | None:
    return to_str(v).lower() if is_char(v) else None


def _host_numeric(v: Any) -> bool:
    return type(v) is float or (type(v) is np.ndarray and v.dtype.kind in "fiu" and v.size > 0)


def _as_double(option: Any) -> Any:
    """A host numeric option as double (the host reads it so: an integer
    array would not combine with single data)."""
    return option if type(option) is float else option.astype(np.float64)


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


_METHODS = ("zscore", "norm", "scale", "range", "center", "medianiqr")


def _iqr(x: Any, dim: float) -> Any:
    """The interquartile range along ``dim`` (``iqr``'s device path: NaN
    ignored, MATLAB's quantile rule), in ``x``'s class."""
    return call("iqr", x, dim)


def _centre(x: Any, option: Any, dim: float) -> Any | None:
    word = "mean" if option is None else _word(option)
    if word == "mean":
        return call("mean", x, dim)
    if word == "median":
        return _median(x, dim)
    if word is None and _host_numeric(option):
        return _as_double(option)
    return None


def _scale(x: Any, option: Any, dim: float, axis: int) -> Any | None:
    word = "std" if option is None else _word(option)
    if word == "std":
        return call("std", x, 0.0, dim)
    if word == "mad":
        return _mad(x, dim)
    if word == "first":
        return index(x, *along(len(x.shape), axis, 1, 1))
    if word == "iqr":
        return _iqr(x, dim)
    if word is None and _host_numeric(option):
        return _as_double(option)
    return None


def _methods(rest: list[Any]) -> list[tuple[str, Any]] | None:
    """(method, option or None) pairs as the host reads them; None for any
    form the host rejects (it raises MATLAB's error)."""
    pairs: list[tuple[str, Any]] = []
    while rest:
        method = _word(rest.pop(0))
        if method not in _METHODS:
            return None
        option = rest.pop(0) if rest and _word(rest[0]) not in _METHODS else None
        pairs.append((method, option))
    names = sorted(m for m, _ in pairs)
    if len(pairs) > 2 or (len(pairs) == 2 and names != ["center", "scale"]):
        return None
    return pairs or [("zscore", None)]


def _centre_and_scale(x: Any, method: str, option: Any, axis: int) -> tuple[Any, Any] | None:
    """(C, S) of one method, with ``N = (x - C) ./ S``; None for options the
    host rejects."""
    dim = float(axis + 1)
    if method == "zscore":
        word = None if option is None else _word(option)
        if word == "robust":
            return _median(x, dim), _mad(x, dim)
        if option is not None and word != "std":
            return None
        return call("mean", x, dim), call("std", x, 0.0, dim)
    if method == "norm":
        p = 2.0 if option is None else (np.inf if _word(option) == "inf" else host_scalar(option))
        if p is None or not p > 0:
            return None
        return 0.0, vector_norm(x, p, dim)
    if method == "scale":
        scale = _scale(x, option, dim, axis)
        return None if scale is None else (0.0, scale)
    if method == "center":
        centre = _centre(x, option, dim)
        return None if centre is None else (centre, 1.0)
    if method == "medianiqr":
        return None if option is not None else (_median(x, dim), _iqr(x, dim))
    bounds = (0.0, 1.0)
    if option is not None:
        if not (type(option) is np.ndarray and option.size == 2 and option.dtype.kind in "fiu"):
            return None
        bounds = tuple(float(b) for b in option.reshape(-1))
        if not bounds[0] < bounds[1]:
            return None
    low = call("min", x, EMPTY, dim, _INCLUDENAN)
    scale = op("./", op("-", call("max", x, EMPTY, dim, _INCLUDENAN), low), bounds[1] - bounds[0])
    return op("-", low, op(".*", bounds[0], scale)), scale


def _in_class(v: Any, x: Any) -> Any:
    """A centre or scale as a device value of ``x``'s class (the ``C`` and
    ``S`` outputs; host constants and options included)."""
    zero = call("zeros", 1.0, 1.0, LIKE, x)
    return op("+", zero, v)


def normalize_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``normalize(x)``, ``normalize(x, dim)``, ``normalize(x, [dim,] method[, option])``,
    ``normalize(x, [dim,] 'center', c, 'scale', s)`` and ``[N, C, S] = normalize(...)``."""
    if nargout > 3 or not args or not real_float(args[0]):
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
    pairs = _methods(rest)
    if pairs is None:
        return None
    centre: Any = 0.0
    scale: Any = 1.0
    for method, option in pairs:
        found = _centre_and_scale(x, method, option, axis)
        if found is None:
            return None
        if method == "center":
            centre = found[0]
        elif method == "scale":
            scale = found[1]
        else:
            centre, scale = found
    if _host_numeric(centre) and np.all(np.asarray(centre) == 0):
        shifted = x
    else:
        shifted = op("-", x, centre)
    result = shifted if type(scale) is float and scale == 1.0 else op("./", shifted, scale)
    if nargout < 2:
        return [result]
    return [result, _in_class(centre, x), _in_class(scale, x)][:max(nargout, 1)]


COMPOSED = {"normalize": normalize_on_device}
