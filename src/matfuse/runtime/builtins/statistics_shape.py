"""Distribution shape and NaN-ignoring statistics: skewness kurtosis iqr
nanmean nansum nanmax nanmin nanstd nanvar nanmedian.

``skewness``/``kurtosis``/``iqr`` follow the Statistics Toolbox: NaN values
are missing data (ignored); flag 1 (default) is the biased estimate, flag 0
the bias-corrected one. The ``nan*`` functions are the documented
equivalents of the core reductions with ``'omitnan'``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import dims_arg, first_nonsingleton_dim, scalar_value
from matfuse.runtime.builtins._reduction_args import ieee_quiet, numeric_input
from matfuse.runtime.builtins.minmax import max_, min_
from matfuse.runtime.builtins.reductions import mean, median, sum_
from matfuse.runtime.builtins.statistics import quantile_sorted, std, var
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import char_array, canonical


def _reduce_vectors(x: Any, dim: Any, fn: str, func: Any) -> Any:
    """Apply ``func(vector) -> float`` along dim / vecdim / 'all' (default:
    the first non-singleton dimension); reduced dimensions become size 1.
    Vectors of single data are passed as single."""
    arr = numeric_input(x, fn)
    single = arr.dtype == np.float32
    # Single data is computed in single, as MATLAB does.
    arr = arr.astype(np.float32 if single else np.float64)
    if dim is None or (isinstance(dim, np.ndarray) and dim.size == 0):
        if arr.ndim == 2 and arr.shape == (0, 0):
            arr = arr.reshape(0, 1)
        dims: tuple[int, ...] = (first_nonsingleton_dim(arr.shape),)
    else:
        parsed = dims_arg(dim, fn)
        dims = tuple(range(arr.ndim)) if parsed is None else parsed
    dims = tuple(d for d in dims if d < arr.ndim)
    out_shape = tuple(1 if d in dims else n for d, n in enumerate(arr.shape))
    keep = [d for d in range(arr.ndim) if d not in dims]
    moved = np.transpose(arr, keep + list(dims))
    lead = moved.shape[:len(keep)]
    rows = moved.reshape((int(np.prod(lead)), -1)) if moved.size else \
        np.zeros((int(np.prod(lead)), 0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        values = np.array([func(r) for r in rows], dtype=np.float64)
    out = values.reshape(out_shape)
    if single:
        out = out.astype(np.float32)
    return canonical(out)


def _flag(v: Any, fn: str) -> int:
    if v is None or (isinstance(v, np.ndarray) and v.size == 0):
        return 1
    f = scalar_value(v, fn)
    if f not in (0.0, 1.0):
        raise MatlabError(f"stats:{fn}:BadFlag", "FLAG must be 0 or 1.")
    return int(f)


def _moment_ratio(row: np.ndarray, power: int, flag: int) -> float:
    v = row[~np.isnan(row)]
    n = v.size
    if n == 0:
        return np.nan
    dev = v - v.mean()
    m2 = np.mean(dev ** 2)
    ratio = np.mean(dev ** power) / m2 ** (power / 2.0)
    if flag == 0:
        if power == 3:
            ratio = ratio * np.sqrt(n * (n - 1)) / (n - 2) if n > 2 else np.nan
        else:
            ratio = 3 + (n - 1) / ((n - 2) * (n - 3)) * ((n + 1) * ratio - 3 * (n - 1)) if n > 3 else np.nan
    return float(ratio)


@builtin("skewness", category="statistics", nargin=(1, 3))
@ieee_quiet
def skewness(x: Any, flag: Any = None, dim: Any = None) -> Any:
    """Sample skewness, NaN ignored: mean((x-mu).^3)/std(x,1)^3; flag 0
    corrects for bias (needs at least 3 values)."""
    f = _flag(flag, "skewness")
    return _reduce_vectors(x, dim, "skewness", lambda r: _moment_ratio(r, 3, f))


@builtin("kurtosis", category="statistics", nargin=(1, 3))
@ieee_quiet
def kurtosis(x: Any, flag: Any = None, dim: Any = None) -> Any:
    """Sample kurtosis, NaN ignored: mean((x-mu).^4)/std(x,1)^4 (3 for a
    normal distribution); flag 0 corrects for bias (needs at least 4 values)."""
    f = _flag(flag, "kurtosis")
    return _reduce_vectors(x, dim, "kurtosis", lambda r: _moment_ratio(r, 4, f))


@builtin("iqr", category="statistics", nargin=(1, 2))
@ieee_quiet
def iqr(x: Any, dim: Any = None) -> Any:
    """Interquartile range, prctile(x,75) - prctile(x,25) (NaN ignored);
    iqr(x, dim), iqr(x, vecdim), iqr(x, 'all')."""
    probs = np.array([0.25, 0.75])

    def spread(row: np.ndarray) -> float:
        q = quantile_sorted(row, probs)
        return float(q[1] - q[0])

    return _reduce_vectors(x, dim, "iqr", spread)


def _with_omitnan(args: tuple) -> tuple:
    return tuple(args) + (char_array("omitnan"),)


@builtin("nanmean", category="statistics", nargin=(1, 2))
def nanmean(x: Any, *args: Any) -> Any:
    """Mean ignoring NaN values: mean(x, dim, 'omitnan')."""
    return mean(x, *_with_omitnan(args))


@builtin("nansum", category="statistics", nargin=(1, 2))
def nansum(x: Any, *args: Any) -> Any:
    """Sum ignoring NaN values: sum(x, dim, 'omitnan')."""
    return sum_(x, *_with_omitnan(args))


@builtin("nanmedian", category="statistics", nargin=(1, 2))
def nanmedian(x: Any, *args: Any) -> Any:
    """Median ignoring NaN values: median(x, dim, 'omitnan')."""
    return median(x, *_with_omitnan(args))


@builtin("nanmax", category="statistics", nargin=(1, 3), nargout=(0, 2), wants_nargout=True)
def nanmax(*args: Any, nargout: int = 1) -> Any:
    """Maximum ignoring NaN values (max already omits NaN by default)."""
    return max_(*args, nargout=nargout)


@builtin("nanmin", category="statistics", nargin=(1, 3), nargout=(0, 2), wants_nargout=True)
def nanmin(*args: Any, nargout: int = 1) -> Any:
    """Minimum ignoring NaN values (min already omits NaN by default)."""
    return min_(*args, nargout=nargout)


@builtin("nanvar", category="statistics", nargin=(1, 3))
def nanvar(x: Any, *args: Any) -> Any:
    """Variance ignoring NaN values: var(x, w, dim, 'omitnan')."""
    return var(x, *_with_omitnan(args))


@builtin("nanstd", category="statistics", nargin=(1, 3))
def nanstd(x: Any, *args: Any) -> Any:
    """Standard deviation ignoring NaN values: std(x, w, dim, 'omitnan')."""
    return std(x, *_with_omitnan(args))
