"""Statistics: std, var, cov, corrcoef, quantile, prctile."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import (
    dims_arg,
    first_nonsingleton_dim,
    is_text,
    scalar_value,
)
from matfuse.runtime.builtins._reduction_args import (
    ieee_quiet,
    NAN_FLAGS,
    ReductionArgs,
    numeric_input,
    prepare,
    real_values,
)
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import canonical, to_array, to_str


def _work(arr: np.ndarray) -> np.ndarray:
    if arr.dtype.kind == "c":
        return arr.astype(np.complex128 if arr.dtype != np.complex64 else np.complex64)
    return arr.astype(np.float32 if arr.dtype == np.float32 else np.float64)


def _var_args(arr: np.ndarray, args: tuple, fn: str) -> tuple[Any, ReductionArgs]:
    rest = list(args)
    omit = False
    while rest and is_text(rest[-1]) and to_str(rest[-1]).lower() in NAN_FLAGS:
        omit = to_str(rest.pop()).lower().startswith("omit")
    if len(rest) > 2:
        raise MatlabError("MATLAB:TooManyInputs", "Too many input arguments.")
    weight: Any = 0.0
    if rest:
        w = rest[0]
        if not (type(w) is np.ndarray and w.size == 0):
            weight = real_values(w, fn, "W")
            if weight.size == 1:
                weight = float(weight.reshape(-1)[0])
                if weight not in (0.0, 1.0):
                    raise MatlabError(f"MATLAB:{fn}:invalidWgts",
                                      "W must be a vector of nonnegative weights, or a scalar 0 or 1.")
            elif np.any(weight < 0):
                raise MatlabError(f"MATLAB:{fn}:invalidWgts",
                                  "W must be a vector of nonnegative weights, or a scalar 0 or 1.")
    if len(rest) == 2:
        return weight, ReductionArgs(dims_arg(rest[1], fn), omit, "default", True)
    return weight, ReductionArgs((first_nonsingleton_dim(arr.shape),), omit, "default", False)


def _plain_moments(a: np.ndarray, axes: tuple[int, ...], weight: float, keep_dev: bool
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(variance, mean, deviations ``a - mean``) of real float data with a
    scalar weight and NaNs included: the same sums as the weighted path
    (its weights are all 1.0 there) without the mask and weight arrays.
    The deviations are returned for double data only (single data compute
    them in double, which is not what zscore divides)."""
    n = 1.0
    for ax in axes:
        n *= a.shape[ax]
    # single data accumulate in double, as the weighted path does
    mu = np.add.reduce(a, axis=axes, keepdims=True, dtype=np.float64) / n
    dev = a - mu
    keep = keep_dev and dev.dtype == a.dtype
    ss = np.add.reduce(np.multiply(dev, dev, out=None if keep else dev),
                       axis=axes, keepdims=True)
    if weight == 1.0:
        v = ss / n
    elif n > 1:
        v = ss / (n - 1)
    else:
        v = 0.0 * ss if n == 1 else ss / n
    v = np.where(np.isnan(mu), np.nan, v)
    if a.dtype != np.float64:
        return v.astype(a.dtype), mu.astype(a.dtype), None
    return v, mu, dev if keep else None


def moments(arr: np.ndarray, weight: Any, ra: ReductionArgs, fn: str, keep_dev: bool = False
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(variance, mean, deviations or None) along ``ra``'s axes; with
    ``keep_dev`` the deviations ``arr - mean`` come back when the fast path
    computed them (real double data, scalar weight, NaNs included), so
    zscore need not redo them."""
    if (not ra.omitnan and not isinstance(weight, np.ndarray)
            and arr.dtype in (np.float64, np.float32)):
        a, axes = prepare(arr, ra.axes, ra.dim_given)
        if axes and a.size:
            return _plain_moments(a, axes, weight, keep_dev)
    v, mu = variance(arr, weight, ra, fn)
    return v, mu, None


def variance(arr: np.ndarray, weight: Any, ra: ReductionArgs, fn: str) -> tuple[np.ndarray, np.ndarray]:
    """(variance, mean) along ``ra``'s axes with MATLAB's weighting rules."""
    a, axes = prepare(_work(arr), ra.axes, ra.dim_given)
    if not axes:
        a, axes = a[..., np.newaxis], (a.ndim,)
    real_dtype = np.float32 if a.dtype in (np.float32, np.complex64) else np.float64
    mask = ~np.isnan(a) if ra.omitnan else np.ones(a.shape, dtype=bool)
    if isinstance(weight, np.ndarray):
        if len(axes) != 1 or weight.size != a.shape[axes[0]]:
            raise MatlabError(f"MATLAB:{fn}:invalidSizeWgts",
                              "The length of the weight vector must equal the size of the operating dimension.")
        shape = [1] * a.ndim
        shape[axes[0]] = weight.size
        w = weight.reshape(shape) * mask
    else:
        w = mask.astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        filled = np.where(mask, a, 0)
        wsum = np.sum(w, axis=axes, keepdims=True)
        mu = np.sum(w * filled, axis=axes, keepdims=True) / wsum
        dev2 = np.abs(np.where(mask, a - mu, 0)) ** 2
        ss = np.sum(w * dev2, axis=axes, keepdims=True)
        if isinstance(weight, np.ndarray) or weight == 1.0:
            v = ss / wsum
        else:
            n = wsum
            v = np.where(n > 1, ss / np.maximum(n - 1, 1), ss / n)
            v = np.where(n == 1, 0.0 * ss, v)
    v = np.where(np.isnan(mu) & (wsum > 0), np.nan, v) if not ra.omitnan else v
    return v.astype(real_dtype), mu.astype(a.dtype)


def _var_std(x: Any, args: tuple, fn: str, nargout: int, root: bool) -> Any:
    arr = numeric_input(x, fn)
    weight, ra = _var_args(arr, args, fn)
    v, mu, _ = moments(arr, weight, ra, fn)
    out = np.sqrt(v) if root else v
    if nargout > 1:
        return canonical(out), canonical(mu)
    return canonical(out)


@builtin("var", category="statistics", nargin=(1, 4), nargout=(0, 2), wants_nargout=True,
         gpu=GpuSpec(kind="reduction", hook="moments", op="var"))
def var(x: Any, *args: Any, nargout: int = 1) -> Any:
    """Variance: var(x, w, dim|vecdim|'all', nanflag); [V, M] = var(...)."""
    return _var_std(x, args, "var", nargout, False)


@builtin("std", category="statistics", nargin=(1, 4), nargout=(0, 2), wants_nargout=True,
         gpu=GpuSpec(kind="reduction", hook="moments", op="std"))
def std(x: Any, *args: Any, nargout: int = 1) -> Any:
    """Standard deviation: std(x, w, dim|vecdim|'all', nanflag); [S, M] = std(...)."""
    return _var_std(x, args, "std", nargout, True)


def _cov_matrix(x: np.ndarray, norm_n: bool) -> np.ndarray:
    n = x.shape[0]
    if n == 0:
        return np.full((x.shape[1], x.shape[1]), np.nan)
    centered = x - x.mean(axis=0, keepdims=True)
    denom = n if (norm_n or n == 1) else n - 1
    return (centered.conj().T @ centered) / denom


def _cov_inputs(args: tuple, fn: str) -> tuple[np.ndarray, bool, bool]:
    """(observations as columns, normalise by N, any input single)."""
    rest = list(args)
    while rest and is_text(rest[-1]):
        word = to_str(rest.pop()).lower()
        if word not in ("includenan", "omitrows", "partialrows"):
            raise MatlabError(f"MATLAB:{fn}:unknownFlag", "Invalid flag.")
    norm_n = False
    if len(rest) >= 2 and to_array(rest[-1]).size == 1 and to_array(rest[0]).size != 1 or len(rest) == 3:
        norm_n = scalar_value(rest.pop(), fn) == 1
    arrays = [numeric_input(r, fn) for r in rest]
    single = any(a.dtype in (np.float32, np.complex64) for a in arrays)
    arrays = [a.astype(np.complex128 if a.dtype.kind == "c" else np.float64, copy=False) for a in arrays]
    if any(a.ndim > 2 for a in arrays):
        raise MatlabError(f"MATLAB:{fn}:InputDim", "Inputs must be 2-D.")
    if len(arrays) == 1:
        x = arrays[0]
        if x.ndim == 2 and x.shape[0] == 1:
            x = x.reshape(-1, 1)
        return x, norm_n, single
    if len(arrays) != 2:
        raise MatlabError("MATLAB:TooManyInputs", "Too many input arguments.")
    a, b = arrays
    if a.size != b.size:
        raise MatlabError(f"MATLAB:{fn}:XYlengthMismatch", "The lengths of X and Y must match.")
    return np.column_stack([a.reshape(-1, order="F"), b.reshape(-1, order="F")]), norm_n, single


def _in_input_class(c: np.ndarray, single: bool) -> np.ndarray:
    """Computed in double; single when an input was single (MATLAB's class rule)."""
    if not single:
        return c
    return c.astype(np.complex64 if c.dtype.kind == "c" else np.float32)


@builtin("cov", category="statistics", nargin=(1, 4),
         gpu=GpuSpec(kind="reduction", hook="stats", op="cov"))
def cov(*args: Any) -> Any:
    """Covariance: cov(x), cov(x, y), cov(..., w)."""
    x, norm_n, single = _cov_inputs(args, "cov")
    return canonical(_in_input_class(_cov_matrix(x, norm_n), single))


@builtin("corrcoef", category="statistics", nargin=(1, None), nargout=(0, 2), wants_nargout=True)
def corrcoef(*args: Any, nargout: int = 1) -> Any:
    """Correlation coefficients: R = corrcoef(x) or corrcoef(x, y); [R, P] p-values."""
    x, _, single = _cov_inputs(args, "corrcoef")
    c = _cov_matrix(x, False)
    d = np.sqrt(np.real(np.diag(c)))
    with np.errstate(invalid="ignore", divide="ignore"):
        r = c / np.outer(d, d)
    r = np.clip(r.real, -1, 1) if r.dtype.kind != "c" else r
    np.fill_diagonal(r, np.where(np.isnan(np.diag(r)), np.nan, 1.0))
    if nargout < 2:
        return canonical(_in_input_class(r, single))
    from scipy import stats

    n = x.shape[0]
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.real(r) * np.sqrt((n - 2) / (1 - np.real(r) ** 2))
        p = 2 * stats.t.sf(np.abs(t), n - 2)
    np.fill_diagonal(p, 1.0)
    return canonical(_in_input_class(r, single)), canonical(_in_input_class(p, single))


# --------------------------------------------------------------- quantiles
def quantile_sorted(v: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """MATLAB's quantile of one vector: sorted data point ``i`` sits at
    probability ``(i - 0.5)/n``; linear interpolation between, clamped."""
    v = np.sort(v[~np.isnan(v)])
    n = v.size
    if n == 0:
        return np.full(probs.shape, np.nan)
    pos = probs * n + 0.5          # 1-based fractional index
    pos = np.clip(pos, 1, n)
    lo = np.floor(pos).astype(int)
    hi = np.minimum(lo + 1, n)
    frac = pos - lo
    v_lo, v_hi = v[lo - 1], v[hi - 1]
    with np.errstate(invalid="ignore"):
        out = v_lo + frac * (v_hi - v_lo)
        # Infinite data: weight the ends instead (Inf - Inf would give NaN).
        weighted = np.where(frac == 0, v_lo, (1 - frac) * v_lo + frac * v_hi)
    return np.where(np.isfinite(v_lo) & np.isfinite(v_hi), out, weighted)


def _quantile(x: Any, p: Any, dim: Any, fn: str, scale: float) -> Any:
    arr = numeric_input(x, fn)
    if arr.dtype.kind == "c":
        # Percentiles order the data; complex numbers have no order to use.
        raise MatlabError(f"MATLAB:{fn}:complexData", "Input data must be real.")
    single = arr.dtype == np.float32
    arr = arr.astype(np.float64)
    pv = real_values(p, fn, "P")
    if fn == "quantile" and pv.size == 1 and pv.reshape(-1)[0] >= 1 and pv.reshape(-1)[0] == np.floor(pv.reshape(-1)[0]):
        count = int(pv.reshape(-1)[0])
        probs = np.arange(1, count + 1) / (count + 1)
    else:
        probs = pv.reshape(-1, order="F") / scale
        if np.any((probs < 0) | (probs > 1)) or np.any(np.isnan(probs)):
            if fn == "prctile":
                raise MatlabError("MATLAB:prctile:BadPercents",
                                  "P must be a scalar or a vector of percent values between 0 and 100.")
            raise MatlabError("MATLAB:quantile:BadProbs",
                              "P must be a scalar or vector of probabilities between 0 and 1.")
    if dim is None:
        if arr.ndim == 2 and arr.shape[0] == 1:
            axis = 1
        else:
            axis = first_nonsingleton_dim(arr.shape)
    else:
        dims = dims_arg(dim, fn)
        if dims is None:
            arr, axis = arr.reshape(-1, 1, order="F"), 0
        elif len(dims) != 1:
            raise MatlabError(f"MATLAB:{fn}:invalidDim", "Dimension argument must be a positive integer scalar.")
        else:
            axis = dims[0]
    if axis >= arr.ndim:
        # A dim past ndims is a trailing singleton.
        arr = arr.reshape(arr.shape + (1,) * (axis + 1 - arr.ndim))
    moved = np.moveaxis(arr, axis, -1)
    rows = moved.reshape(int(np.prod(moved.shape[:-1])), moved.shape[-1])
    out = np.stack([quantile_sorted(r, probs) for r in rows]) if rows.shape[0] else np.zeros((0, probs.size))
    out = np.moveaxis(out.reshape(moved.shape[:-1] + (probs.size,)), -1, axis)
    # single data gives single (computed in double, rounded once)
    return canonical(out.astype(np.float32) if single else out)


@builtin("quantile", category="statistics", nargin=(2, 4))
@ieee_quiet
def quantile(x: Any, p: Any, dim: Any = None, *_: Any) -> Any:
    """Quantiles by MATLAB's default method (midpoint plotting positions)."""
    return _quantile(x, p, dim, "quantile", 1.0)


@builtin("prctile", category="statistics", nargin=(2, 4))
@ieee_quiet
def prctile(x: Any, p: Any, dim: Any = None, *_: Any) -> Any:
    """Percentiles: prctile(x, p, dim) = quantile(x, p/100, dim)."""
    return _quantile(x, p, dim, "prctile", 100.0)
