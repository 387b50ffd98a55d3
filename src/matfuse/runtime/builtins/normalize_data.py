"""normalize: center and scale data along a dimension.

``N = normalize(A)`` is the z-score along the first non-singleton
dimension; ``normalize(A, dim)``; one method with its option: ``'zscore'``
(``'std'`` or ``'robust'``), ``'norm'`` (p, default 2), ``'scale'``
(``'std'``, ``'mad'``, ``'first'``, ``'iqr'`` or a number), ``'range'``
(``[a b]``, default ``[0 1]``), ``'center'`` (``'mean'``, ``'median'`` or a
number), ``'medianiqr'``; or ``'center'`` and ``'scale'`` together.
``[N, C, S] = normalize(...)`` also returns the centering and scaling
values, with ``N = (A - C) ./ S``. The interquartile range is MATLAB's
``iqr`` (its quantile rule); single data stays single.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import dim_arg, first_nonsingleton_dim, is_text, scalar_value
from matfuse.runtime.builtins._math_support import double_values
from matfuse.runtime.builtins._reduction_args import ReductionArgs, ieee_quiet, numeric_input
from matfuse.runtime.builtins.statistics import quantile_sorted, variance
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import canonical, to_str

_METHODS = ("zscore", "norm", "scale", "range", "center", "medianiqr")


def _invalid_method() -> MatlabError:
    return MatlabError("MATLAB:normalize:InvalidMethod",
                       "Normalization method must be 'zscore', 'norm', 'scale', 'range', "
                       "'center', or 'medianiqr'.")


def _word(v: Any) -> str | None:
    return to_str(v).lower() if is_text(v) else None


def _methods(rest: list[Any]) -> list[tuple[str, Any]]:
    """(method, option or None) pairs; only 'center' and 'scale' combine."""
    pairs: list[tuple[str, Any]] = []
    while rest:
        method = _word(rest.pop(0))
        if method not in _METHODS:
            raise _invalid_method()
        option = None
        if rest and not (_word(rest[0]) in _METHODS):
            option = rest.pop(0)
        pairs.append((method, option))
    names = [m for m, _ in pairs]
    if len(pairs) > 2 or (len(pairs) == 2 and sorted(names) != ["center", "scale"]):
        raise MatlabError("MATLAB:normalize:InvalidMethodCombination",
                          "Only the 'center' and 'scale' methods can be specified together.")
    return pairs or [("zscore", None)]


def _iqr(work: np.ndarray, axis: int) -> np.ndarray:
    def spread(v: np.ndarray) -> float:
        q = quantile_sorted(v, np.array([0.25, 0.75]))
        return float(q[1] - q[0])
    return np.apply_along_axis(spread, axis, work).reshape(_kept(work, axis))


def _kept(work: np.ndarray, axis: int) -> tuple[int, ...]:
    shape = list(work.shape)
    shape[axis] = 1
    return tuple(shape)


def _median(work: np.ndarray, axis: int) -> np.ndarray:
    return np.median(work, axis=axis, keepdims=True)


def _std(work: np.ndarray, axis: int) -> np.ndarray:
    return np.sqrt(variance(work, 0.0, ReductionArgs((axis,), False, "default", True),
                            "normalize")[0])


def _center(work: np.ndarray, axis: int, option: Any) -> Any:
    word = _word(option)
    if option is None or word == "mean":
        return np.mean(work, axis=axis, keepdims=True)
    if word == "median":
        return _median(work, axis)
    if word is not None:
        raise MatlabError("MATLAB:normalize:InvalidCenterOption",
                          "Centering option must be 'mean', 'median', or a numeric array.")
    return double_values(option, "normalize")


def _scale(work: np.ndarray, axis: int, option: Any) -> Any:
    word = _word(option)
    if option is None or word == "std":
        return _std(work, axis)
    if word == "mad":
        return _median(np.abs(work - _median(work, axis)), axis)
    if word == "first":
        return np.take(work, [0], axis=axis)
    if word == "iqr":
        return _iqr(work, axis)
    if word is not None:
        raise MatlabError("MATLAB:normalize:InvalidScaleOption",
                          "Scaling option must be 'std', 'mad', 'first', 'iqr', or a numeric array.")
    return double_values(option, "normalize")


def _center_and_scale(work: np.ndarray, axis: int, method: str, option: Any) -> tuple[Any, Any]:
    """(C, S) of one method, with N = (A - C) ./ S."""
    if method == "zscore":
        word = _word(option)
        if word == "robust":
            center = _median(work, axis)
            return center, _median(np.abs(work - center), axis)
        if option is not None and word != "std":
            raise MatlabError("MATLAB:normalize:InvalidZscoreOption",
                              "Z-score option must be 'std' or 'robust'.")
        return np.mean(work, axis=axis, keepdims=True), _std(work, axis)
    if method == "norm":
        from matfuse.runtime.builtins.norms import vector_norm
        p = 2.0 if option is None else (np.inf if _word(option) == "inf"
                                        else scalar_value(option, "normalize"))
        return 0.0, vector_norm(work, p, axis)
    if method == "scale":
        return 0.0, _scale(work, axis, option)
    if method == "center":
        return _center(work, axis, option), 1.0
    if method == "medianiqr":
        return _median(work, axis), _iqr(work, axis)
    bounds = double_values(option, "normalize").reshape(-1) if option is not None \
        else np.array([0.0, 1.0])
    if bounds.size != 2 or not bounds[0] < bounds[1]:
        raise MatlabError("MATLAB:normalize:InvalidRange",
                          "Range must be a 2-element row vector [a b] with a < b.")
    low = np.min(work, axis=axis, keepdims=True)
    scale = (np.max(work, axis=axis, keepdims=True) - low) / (bounds[1] - bounds[0])
    return low - bounds[0] * scale, scale


@builtin("normalize", category="statistics", nargin=(1, None), nargout=(0, 3),
         wants_nargout=True)
@ieee_quiet
def normalize(x: Any, *args: Any, nargout: int = 1) -> Any:
    """normalize(A), normalize(A, dim), normalize(..., method, option),
    normalize(..., 'center', c, 'scale', s); [N, C, S] = normalize(...) with
    N = (A - C) ./ S."""
    arr = numeric_input(x, "normalize")
    if arr.dtype.kind == "c":
        raise MatlabError("MATLAB:normalize:ComplexInput",
                          "Complex input data is not supported.")
    work = arr.astype(np.float32 if arr.dtype == np.float32 else np.float64)
    rest = list(args)
    axis = first_nonsingleton_dim(work.shape)
    if rest and not is_text(rest[0]):
        axis = dim_arg(rest.pop(0), "normalize")
    if axis >= work.ndim:
        work = work.reshape(work.shape + (1,) * (axis + 1 - work.ndim))
    center: Any = 0.0
    scale: Any = 1.0
    for method, option in _methods(rest):
        c, s = _center_and_scale(work, axis, method, option)
        if method == "center":
            center = c
        elif method == "scale":
            scale = s
        else:
            center, scale = c, s
    with np.errstate(invalid="ignore", divide="ignore"):
        out = (work - center) / scale
    result = canonical(np.asarray(out).astype(work.dtype, copy=False).reshape(arr.shape))
    if nargout < 2:
        return result
    in_class = [canonical(np.asarray(v, dtype=work.dtype)) for v in (center, scale)]
    return (result, *in_class)
